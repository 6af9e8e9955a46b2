import { assert } from '../../assert.js';

/**
 * The first two digits of a US ABA routing transit number (RTN) and what each range means.
 *
 * Sources (facts only, wording is ours):
 * - 12 CFR Part 229 (Regulation CC), Appendix A, paragraph B: the first four digits form the
 *   "Federal Reserve routing symbol"; the first two identify the Federal Reserve District (01 Boston
 *   ... 12 San Francisco); adding 2 to the first digit denotes a thrift (21 ... 32).
 *   https://ecfr.io/Title-12/Part-229/Appendix-A
 * - Routing transit number article (prefix table 00-12, 21-32, 61-72, 80; district cities):
 *   http://www.netipedia.com/index.php/RTN and
 *   https://academickids.com/encyclopedia/index.php/Routing_transit_number
 * - Electronic Transaction Identifiers (ETIs) = normal prefix + 60, for non-bank payment processors
 *   and clearing houses: http://ach-processing-software.blogspot.com (ABA routing number article, 2011)
 * - Thrift range assigned only until 1985 (BankersOnline editor's note on Reg CC Appendix A:
 *   https://www.bankersonline.com/book/export/html/145500).
 * - Digit 3 = the Federal Reserve check-processing centre originally assigned, digit 4 = 0 inside the
 *   Federal Reserve city, else 1-9 for the state within the district; since check processing was
 *   centralised (Reg CC reduced to a single check-processing region effective 2010-02-27, 75 FR 219)
 *   neither digit reliably locates a bank: https://us-routing-numbers.com/about-routing-numbers
 *   We therefore interpret only the first two digits.
 */

/** District number (1-12) -> the city of that district's Federal Reserve Bank (Regulation CC App. A). */
export const federalReserveDistrictCities: readonly string[] = [
  'Boston',
  'New York',
  'Philadelphia',
  'Cleveland',
  'Richmond',
  'Atlanta',
  'Chicago',
  'St. Louis',
  'Minneapolis',
  'Kansas City',
  'Dallas',
  'San Francisco',
];

const districtCount = 12; // twelve Federal Reserve Banks since the Federal Reserve Act of 1913
const thriftOffset = 20; // 21-32 = district + 20 (Reg CC: "adding 2 to the first digit")
const etiOffset = 60; // 61-72 = district + 60 (Electronic Transaction Identifiers)
const prefixSpace = 100; // two decimal digits

export type PrefixKind =
  | 'us_government'
  | 'federal_reserve_district'
  | 'thrift_institution'
  | 'electronic_transaction_identifier'
  | 'travelers_cheques'
  | 'unassigned';

export interface RoutingPrefix {
  /** The first two digits, e.g. '07'. */
  readonly value: string;
  readonly kind: PrefixKind;
  /** Federal Reserve District 1-12, or null for 00, 80 and unassigned prefixes. */
  readonly district: number | null;
  /** City of that district's Federal Reserve Bank, or null. */
  readonly reserve_bank_city: string | null;
  readonly meaning: string;
}

function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function districtPrefix(value: string, kind: PrefixKind, district: number): RoutingPrefix {
  const city = federalReserveDistrictCities[district - 1] ?? null;
  const where = `${ordinal(district)} Federal Reserve District (${city})`;
  const meanings: Partial<Record<PrefixKind, string>> = {
    federal_reserve_district: `Depository institution in the ${where}`,
    thrift_institution: `Thrift range of the ${where}: assigned to thrifts until 1985, now held by any institution, mostly credit unions`,
    electronic_transaction_identifier: `Electronic Transaction Identifier (ETI) of the ${where}: non-bank payment processors and clearing houses, electronic transactions only`,
  };
  return { value, kind, district, reserve_bank_city: city, meaning: meanings[kind] ?? kind };
}

function classify(code: number): RoutingPrefix {
  const value = String(code).padStart(2, '0');
  if (code === 0)
    return {
      value,
      kind: 'us_government',
      district: null,
      reserve_bank_city: null,
      meaning: 'U.S. Government',
    };
  if (code === 80)
    return {
      value,
      kind: 'travelers_cheques',
      district: null,
      reserve_bank_city: null,
      meaning: "Traveler's cheques",
    };
  if (code >= 1 && code <= districtCount)
    return districtPrefix(value, 'federal_reserve_district', code);
  const thrift = code - thriftOffset;
  if (thrift >= 1 && thrift <= districtCount)
    return districtPrefix(value, 'thrift_institution', thrift);
  const eti = code - etiOffset;
  if (eti >= 1 && eti <= districtCount)
    return districtPrefix(value, 'electronic_transaction_identifier', eti);
  return {
    value,
    kind: 'unassigned',
    district: null,
    reserve_bank_city: null,
    meaning: 'Not an ABA routing prefix: the first two digits must be 00-12, 21-32, 61-72 or 80',
  };
}

/** Index = the prefix as a number; built once so a bulk check does no string work per item. */
const prefixTable: readonly RoutingPrefix[] = Object.freeze(
  Array.from({ length: prefixSpace }, (_, code) => Object.freeze(classify(code))),
);

/** Meaning of a two-digit prefix ('00'..'99'); undefined when `value` is not two ASCII digits. */
export function describePrefix(value: string): RoutingPrefix | undefined {
  if (!/^[0-9]{2}$/.test(value)) return undefined;
  return prefixTable[Number(value)];
}

/** Same as describePrefix for a number 0-99 (the hot path of checkRoutingNumber). */
export function prefixOfCode(code: number): RoutingPrefix {
  const entry = prefixTable[code];
  assert(entry !== undefined, `prefix code out of range: ${code}`);
  return entry;
}

/** All 37 prefixes a routing number may start with, ascending. */
export const assignedPrefixes: readonly string[] = prefixTable
  .filter((p) => p.kind !== 'unassigned')
  .map((p) => p.value);

/** The 63 two-digit values that are not routing prefixes, ascending. */
export const unassignedPrefixes: readonly string[] = prefixTable
  .filter((p) => p.kind === 'unassigned')
  .map((p) => p.value);

/**
 * The main routing numbers of the twelve Federal Reserve Banks (district order 1-12). Public: listed
 * as the Reserve Banks' own entries (record type code 0) in the FedACH directory, e.g. 011000015 is
 * the first record of every published FedACH file; the test checks each against the 2018 directory.
 */
export const federalReserveBankRoutingNumbers: readonly string[] = [
  '011000015',
  '021001208',
  '031000040',
  '041000014',
  '051000033',
  '061000146',
  '071000301',
  '081000045',
  '091000080',
  '101000048',
  '111000038',
  '121000374',
];
