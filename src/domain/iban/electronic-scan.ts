/**
 * validateIban's fast path without the verdict: for an input already in electronic form (known country, right
 * length, every character fitting its position) and passing the IBAN checksum, the country's index, the bank
 * code as a number (its bank key) and the BBAN's MOD 97-10 remainder, all read from char codes: no string is
 * sliced and no object allocated. Anything else (paper form, lower case, any failure) is not scanned, and the
 * caller takes validateIban, which names the reason. A scanned IBAN is valid unless its national check fails
 * (nationalOutcomeOf), exactly as validateIban would judge it (test: electronic-scan.test.ts).
 */
import { bbanOffset, countryFormats } from './countries.js';
import {
  bankKeyAt,
  bbanRemainder,
  checkDigitsMax,
  checkDigitsMin,
  codeDigit0,
  ibanRemainder,
  modulus,
  tableIndexOf,
  tables,
} from './country-tables.js';
import type { NationalCheckOutcome, NationalContext } from './national/types.js';

/** What a scan found; one object reused row after row (the caller reads it before the next scan). */
export class ElectronicScan {
  /** The country's index in countryFormats. */
  country = -1;
  /** The bank code read as a number (bankCodeKey gives the same number for the code as a string). */
  bankKey = -1;
  /** The BBAN's MOD 97-10 remainder (0..96), which national rules of the BBAN-mod-97 kind reuse. */
  bbanMod97 = 0;
}

/** True when `input` is an electronic-form IBAN with a valid IBAN checksum: `into` then describes it. */
export function scanElectronic(input: string, into: ElectronicScan): boolean {
  const length = input.length;
  if (length < bbanOffset) return false;
  const country = tableIndexOf(input);
  if (country < 0) return false;
  const table = tables[country]!;
  if (length !== table.format.ibanLength) return false;
  const tens = input.charCodeAt(2) - codeDigit0;
  const units = input.charCodeAt(3) - codeDigit0;
  if (tens < 0 || tens > 9 || units < 0 || units > 9) return false;
  const checkDigits = tens * 10 + units;
  if (checkDigits < checkDigitsMin || checkDigits > checkDigitsMax) return false;
  const remainder = bbanRemainder(input, table.runs);
  if (remainder < 0) return false;
  const bbanMod97 = remainder % modulus;
  if (ibanRemainder(table, bbanMod97, checkDigits) !== 1) return false;
  into.country = country;
  into.bankKey = bankKeyAt(input, table.bankStart, table.bankKinds);
  into.bbanMod97 = bbanMod97;
  return true;
}

/** The national check of a scanned IBAN, as validateIban runs it (not_applicable for a country without one). */
export function nationalOutcomeOf(
  input: string,
  scan: ElectronicScan,
  context: NationalContext,
): NationalCheckOutcome {
  const check = tables[scan.country]!.nationalCheck;
  return check === null ? 'not_applicable' : check(input, bbanOffset, context, scan.bbanMod97);
}

/** Where a country's bank code sits in its IBANs: [first index, index after it]. */
export function bankCodeSpanOf(country: number): readonly [number, number] {
  const table = tables[country]!;
  return [table.bankStart, table.bankEnd];
}

/**
 * The bank key of a bank code of the country at index `country` of countryFormats, or -1 for a code no IBAN of
 * the country can carry (wrong length, or a character its position does not allow).
 */
export function bankCodeKey(country: number, bankCode: string): number {
  const table = tables[country];
  if (table === undefined || bankCode.length !== table.bankKinds.length) return -1;
  return bankKeyAt(bankCode, 0, table.bankKinds);
}

/** The index in countryFormats of an upper-case country code, or -1. */
export function countryIndexOf(countryCode: string): number {
  if (countryCode.length !== 2) return -1;
  const index = tableIndexOf(countryCode);
  return index >= 0 && countryFormats[index]?.code === countryCode ? index : -1;
}
