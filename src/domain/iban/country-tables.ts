/**
 * Per-country position tables, built once, that validation reads: one pass of charCode checks per IBAN. Kinds and
 * characters are bit sets: a character fits a position when their AND is non-zero. validateIban (validate.ts) and
 * the verdict-free scan (electronic-scan.ts) share them, so both read an IBAN the same way.
 */
import { assert } from '../../assert.js';
import { nationalRuleOf } from './national/index.js';
import type { NationalCheckAt, NationalRule } from './national/types.js';
import {
  bbanKinds,
  bbanOffset,
  countryFormats,
  type CharKind,
  type CountryFormat,
} from './countries.js';

export const bitDigit = 1;
export const bitLetter = 2;
const kindBits: Record<CharKind, number> = { n: bitDigit, a: bitLetter, c: bitDigit | bitLetter };
export const asciiSize = 128;
const alphabetSize = 26;
export const codeUpperA = 65;
const codeUpperZ = 90;
export const codeDigit0 = 48;
const codeDigit9 = 57;
const letterBase = 55; // 'A' reads as 10 in MOD 97-10
export const modulus = 97;
/** Check digits 00, 01 and 99 are never issued: 98 - (n mod 97) only yields 02..98. */
export const checkDigitsMin = 2;
export const checkDigitsMax = 98;

/** Per ASCII code: its kind bits, its MOD 97-10 value and the factor that makes room for it. */
export const charBits = new Uint8Array(asciiSize);
export const charValue = new Uint8Array(asciiSize);
export const charFactor = new Uint8Array(asciiSize);
for (let code = codeDigit0; code <= codeDigit9; code++) {
  charBits[code] = bitDigit;
  charValue[code] = code - codeDigit0;
  charFactor[code] = 10;
}
for (let code = codeUpperA; code <= codeUpperZ; code++) {
  charBits[code] = bitLetter;
  charValue[code] = code - letterBase;
  charFactor[code] = 100; // letters read as two decimal digits
}

/**
 * A bank key reads the bank code in a mixed radix, one digit per position: 10 where the registry allows digits,
 * 26 for letters, 36 for letters or digits. A country's bank codes all have one length and layout, so the key is
 * one-to-one on the codes an IBAN of the country can carry, and it must stay a small integer (V8 keeps it
 * unboxed, and a Map of them hashes no string): the largest of the 89 countries (RU, 9 digits) is 10^9.
 */
const bankKeyMax = 2 ** 30;
const radixOfKind: Record<number, number> = {
  [bitDigit]: 10,
  [bitLetter]: 26,
  [bitDigit | bitLetter]: 36,
};

export interface CountryTable {
  readonly format: CountryFormat;
  readonly kinds: Uint8Array;
  /** The BBAN as runs of one kind: [end index in the IBAN, kind bits] pairs. */
  readonly runs: Int32Array;
  /** The two country letters read as four MOD 97-10 digits (e.g. DE -> 1314). */
  readonly countryDigits: number;
  readonly rule: NationalRule | undefined;
  /** The rule's check on the IBAN in place (no BBAN slice), or null for a country without a rule. */
  readonly nationalCheck: NationalCheckAt | null;
  /** The bank code's first index in the IBAN and the index after it. */
  readonly bankStart: number;
  readonly bankEnd: number;
  /** The kind bits of each bank-code position (the radix of its bank-key digit follows from them). */
  readonly bankKinds: Uint8Array;
}

function buildTable(format: CountryFormat): CountryTable {
  const kinds = Uint8Array.from(bbanKinds(format), (kind) => kindBits[kind]);
  const first = format.code.charCodeAt(0) - letterBase;
  const second = format.code.charCodeAt(1) - letterBase;
  const rule = nationalRuleOf(format.code);
  const bankKinds = kinds.slice(
    format.bankCode.offset,
    format.bankCode.offset + format.bankCode.length,
  );
  const keys = bankKinds.reduce((product, kind) => product * (radixOfKind[kind] as number), 1);
  assert(keys <= bankKeyMax, `${format.code} bank keys stay small integers`);
  return {
    format,
    kinds,
    runs: runsOf(kinds),
    countryDigits: first * 100 + second,
    rule,
    nationalCheck: inPlaceCheck(rule),
    bankStart: bbanOffset + format.bankCode.offset,
    bankEnd: bbanOffset + format.bankCode.offset + format.bankCode.length,
    bankKinds,
  };
}

function runsOf(kinds: Uint8Array): Int32Array {
  const runs: number[] = [];
  for (let index = 0; index < kinds.length; index++) {
    const kind = kinds[index]!;
    if (index + 1 === kinds.length || kinds[index + 1] !== kind)
      runs.push(bbanOffset + index + 1, kind);
  }
  return Int32Array.from(runs);
}

function inPlaceCheck(rule: NationalRule | undefined): NationalCheckAt | null {
  if (rule === undefined) return null;
  if (rule.checkAt !== undefined) return rule.checkAt;
  return (text, start, context) => rule.check(text.slice(start), context);
}

/** One table per country, in the order of countryFormats (a country's index there is its index here). */
export const tables: readonly CountryTable[] = countryFormats.map(buildTable);
/** Two upper-case letters -> index into `tables`, or -1. */
const tableIndexByLetters = new Int16Array(alphabetSize * alphabetSize).fill(-1);
tables.forEach((table, index) => {
  const first = table.format.code.charCodeAt(0) - codeUpperA;
  const second = table.format.code.charCodeAt(1) - codeUpperA;
  tableIndexByLetters[first * alphabetSize + second] = index;
});

/** The index in `tables` (and countryFormats) of the country whose letters open `text`, or -1. */
export function tableIndexOf(text: string): number {
  const first = text.charCodeAt(0) - codeUpperA;
  const second = text.charCodeAt(1) - codeUpperA;
  if (first < 0 || first >= alphabetSize || second < 0 || second >= alphabetSize) return -1;
  return tableIndexByLetters[first * alphabetSize + second]!;
}

export function tableOf(text: string): CountryTable | undefined {
  const index = tableIndexOf(text);
  return index < 0 ? undefined : tables[index];
}

/** r * 100 + 99 stays below 2^31 while r <= this: int32 arithmetic, one % per three digit pairs. */
const reducePairsAbove = 21_474_835;

/**
 * The BBAN's MOD 97-10 remainder (not reduced below 97), or -1 when a character does not fit its
 * position. Digit runs go two digits per step; letters read as two decimal digits (10..35).
 */
export function bbanRemainder(input: string, runs: Int32Array): number {
  let remainder = 0;
  let index = bbanOffset;
  for (let run = 0; run < runs.length; run += 2) {
    const end = runs[run]!;
    const kind = runs[run + 1]!;
    if (kind === bitDigit) {
      for (; index + 1 < end; index += 2) {
        const high = input.charCodeAt(index) - codeDigit0;
        const low = input.charCodeAt(index + 1) - codeDigit0;
        if (high < 0 || high > 9 || low < 0 || low > 9) return -1;
        remainder = remainder * 100 + high * 10 + low;
        if (remainder > reducePairsAbove) remainder %= modulus;
      }
      if (index < end) {
        const digit = input.charCodeAt(index) - codeDigit0;
        if (digit < 0 || digit > 9) return -1;
        remainder = remainder * 10 + digit;
        if (remainder > reducePairsAbove) remainder %= modulus;
        index++;
      }
    } else if (kind === bitLetter) {
      for (; index < end; index++) {
        const letter = input.charCodeAt(index) - codeUpperA;
        if (letter < 0 || letter >= alphabetSize) return -1;
        remainder = remainder * 100 + letter + 10;
        if (remainder > reducePairsAbove) remainder %= modulus;
      }
    } else {
      // Digits and letters mix at random here: table lookups instead of an unpredictable branch.
      for (; index < end; index++) {
        const code = input.charCodeAt(index);
        if (code >= asciiSize || charBits[code] === 0) return -1;
        remainder = remainder * charFactor[code]! + charValue[code]!;
        if (remainder > reducePairsAbove) remainder %= modulus;
      }
    }
  }
  return remainder;
}

/**
 * The whole IBAN's MOD 97-10 remainder from its BBAN's (reduced) and its check digits: the rearranged IBAN is the
 * BBAN, then the country letters (4 digits), then the check digits (2 digits). 1 for a valid IBAN.
 */
export function ibanRemainder(table: CountryTable, bbanMod97: number, checkDigits: number): number {
  return (bbanMod97 * 1_000_000 + table.countryDigits * 100 + checkDigits) % modulus;
}

/**
 * The bank key of the bank code at text[start, start + kinds.length), or -1 when a character does not fit its
 * position (see bankKeyMax). Callers on the validation path have matched the structure already.
 */
export function bankKeyAt(text: string, start: number, kinds: Uint8Array): number {
  let key = 0;
  for (let index = 0; index < kinds.length; index++) {
    const code = text.charCodeAt(start + index);
    const bits = code < asciiSize ? charBits[code]! : 0;
    const kind = kinds[index]!;
    if ((bits & kind) === 0) return -1;
    if (kind === bitDigit) key = key * 10 + (code - codeDigit0);
    else if (kind === bitLetter) key = key * 26 + (code - codeUpperA);
    else key = key * 36 + charValue[code]!;
  }
  return key;
}
