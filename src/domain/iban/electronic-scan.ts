/**
 * validateIban's fast path without the verdict: for an input already in electronic form (known country, right
 * length, every character fitting its position) and passing the IBAN checksum, the country's index, the bank
 * code as a number (its bank key) and the BBAN's MOD 97-10 remainder, all read from char codes: no string is
 * sliced and no object allocated. Anything else (paper form, lower case, any failure) is not scanned, and the
 * caller takes validateIban, which names the reason. A scanned IBAN is valid unless its national check fails
 * (nationalOutcomeOf), exactly as validateIban would judge it (test: electronic-scan.test.ts). It reads validate.ts's
 * per-country tables and BBAN loop, so both read an IBAN the same way; validateIban itself is left as it was.
 */
import { assert } from '../../assert.js';
import { bbanKinds, bbanOffset, countryFormats, type CharKind } from './countries.js';
import type { NationalCheckOutcome, NationalContext } from './national/types.js';
import { bbanRemainder, tableIndexOf, tables } from './validate.js';

const modulus = 97;
const codeDigit0 = 48;
const codeDigit9 = 57;
const codeUpperA = 65;
const codeUpperZ = 90;
const letterBase = 55; // 'A' reads as 10
/** Check digits 00, 01 and 99 are never issued: 98 - (n mod 97) only yields 02..98. */
const checkDigitsMin = 2;
const checkDigitsMax = 98;

/**
 * A bank key reads the bank code in a mixed radix, one digit per position: 10 where the registry allows digits,
 * 26 for letters, 36 for letters or digits. A country's bank codes all have one length and layout, so the key is
 * one-to-one on the codes an IBAN of the country can carry, and it must stay a small integer (V8 keeps it
 * unboxed, and a Map of them hashes no string): the largest of the 89 countries (RU, 9 digits) is 10^9.
 */
const bankKeyMax = 2 ** 30;
const radixOfKind: Record<CharKind, number> = { n: 10, a: 26, c: 36 };

/** Per country (index of countryFormats): where its bank code sits in an IBAN and the radix of each position. */
interface BankSpan {
  readonly start: number;
  readonly end: number;
  readonly radixes: Uint8Array;
}

const bankSpans: readonly BankSpan[] = countryFormats.map((format) => {
  const { offset, length } = format.bankCode;
  const radixes = Uint8Array.from(
    bbanKinds(format).slice(offset, offset + length),
    (kind) => radixOfKind[kind],
  );
  const keys = radixes.reduce((product, radix) => product * radix, 1);
  assert(keys <= bankKeyMax, `${format.code} bank keys stay small integers`);
  return { start: bbanOffset + offset, end: bbanOffset + offset + length, radixes };
});

/**
 * The bank key of the code at text[start, start + radixes.length), or -1 when a character does not fit its
 * position. Callers on the validation path have matched the structure already.
 */
function bankKeyAt(text: string, start: number, radixes: Uint8Array): number {
  let key = 0;
  for (let index = 0; index < radixes.length; index++) {
    const code = text.charCodeAt(start + index);
    const radix = radixes[index]!;
    const digit = code >= codeDigit0 && code <= codeDigit9;
    const letter = code >= codeUpperA && code <= codeUpperZ;
    if (radix === 10) {
      if (!digit) return -1;
      key = key * 10 + (code - codeDigit0);
    } else if (radix === 26) {
      if (!letter) return -1;
      key = key * 26 + (code - codeUpperA);
    } else {
      if (!digit && !letter) return -1;
      key = key * 36 + (digit ? code - codeDigit0 : code - letterBase);
    }
  }
  return key;
}

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
  // The rearranged IBAN: the BBAN, then the country letters (4 digits), then the check digits (2 digits).
  const bbanMod97 = remainder % modulus;
  if ((bbanMod97 * 1_000_000 + table.countryDigits * 100 + checkDigits) % modulus !== 1)
    return false;
  const span = bankSpans[country]!;
  into.country = country;
  into.bankKey = bankKeyAt(input, span.start, span.radixes);
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
  const span = bankSpans[country]!;
  return [span.start, span.end];
}

/**
 * The bank key of a bank code of the country at index `country` of countryFormats, or -1 for a code no IBAN of
 * the country can carry (wrong length, or a character its position does not allow).
 */
export function bankCodeKey(country: number, bankCode: string): number {
  const span = bankSpans[country];
  if (span === undefined || bankCode.length !== span.radixes.length) return -1;
  return bankKeyAt(bankCode, 0, span.radixes);
}

/** The index in countryFormats of an upper-case country code, or -1. */
export function countryIndexOf(countryCode: string): number {
  if (countryCode.length !== 2) return -1;
  const index = tableIndexOf(countryCode);
  return index >= 0 && countryFormats[index]?.code === countryCode ? index : -1;
}
