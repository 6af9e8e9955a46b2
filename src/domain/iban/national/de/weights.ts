/**
 * Shared arithmetic of the Bundesbank check methods (Prüfzifferberechnungsmethoden).
 * Every method works on the 10-digit Kontonummer (left-padded with zeros); positions are
 * 1-based from the left, exactly as the Bundesbank document numbers them ("Stelle 1..10").
 * Weights are listed the way the document lists them: the first weight applies to the
 * rightmost position taken into the calculation, the next one to its left neighbour, etc.
 */

/** A Bundesbank method: 'not_checked' only when an input it depends on (the BLZ) is unusable. */
export type GermanMethod = (account: string, bankCode: string) => boolean | 'not_checked';

/** Table of implemented methods, keyed by the two-character method code. */
export type GermanMethodTable = Readonly<Record<string, GermanMethod>>;

const zeroCode = 48; // '0'

/** Digit at 1-based position `position` of the 10-digit account. */
export function at(account: string, position: number): number {
  return account.charCodeAt(position - 1) - zeroCode;
}

/** The check digit, by default at position 10. */
export function checkDigit(account: string, position = 10): number {
  return at(account, position);
}

/** Digits counted without the leading zeros ("ohne führende Nullen gezählt"). */
export function significantLength(account: string): number {
  let index = 0;
  while (index < account.length && account.charCodeAt(index) === zeroCode) index++;
  return account.length - index;
}

/** Sum of digit × weight; weights[0] multiplies position `last`, weights[1] position last-1, … */
export function weightedSum(
  account: string,
  last: number,
  weights: readonly number[],
  count = weights.length,
): number {
  let sum = 0;
  for (let index = 0; index < count; index++)
    sum += at(account, last - index) * (weights[index] ?? 0);
  return sum;
}

/** Every digit × weight product (digit 9 × weight at most 11) is below this: its digit sum is a table read. */
const productDigitSumsSize = 100;
const productDigitSums: readonly number[] = Array.from(
  { length: productDigitSumsSize },
  (_, value) => Math.floor(value / 10) + (value % 10),
);

/** Digit sum of a number (one level: 63 -> 9, 49 -> 13), the document's "Quersumme". */
export function digitSum(value: number): number {
  if (value < productDigitSumsSize) return productDigitSums[value] ?? 0; // the hot case: one product
  let sum = 0;
  for (let rest = value; rest > 0; rest = Math.floor(rest / 10)) sum += rest % 10;
  return sum;
}

/** Like weightedSum, but every product is first replaced by its digit sum (method 00 family). */
export function crossWeightedSum(
  account: string,
  last: number,
  weights: readonly number[],
  count = weights.length,
): number {
  let sum = 0;
  for (let index = 0; index < count; index++)
    sum += digitSum(at(account, last - index) * (weights[index] ?? 0));
  return sum;
}

/** Modulus 10: "the units digit is subtracted from 10; a result of 10 means check digit 0". */
export function mod10(sum: number): number {
  return (10 - (sum % 10)) % 10;
}

/** Modulus 11 as in method 06: remainder 0 or 1 gives check digit 0, otherwise 11 - remainder. */
export function mod11Lenient(sum: number): number {
  const remainder = sum % 11;
  return remainder <= 1 ? 0 : 11 - remainder;
}

/** Modulus 11 as in method 02: remainder 1 makes the account unusable (undefined). */
export function mod11Strict(sum: number): number | undefined {
  const remainder = sum % 11;
  if (remainder === 0) return 0;
  return remainder === 1 ? undefined : 11 - remainder;
}

/** Modulus 7 (and 9, 10) "divisor minus remainder, remainder 0 gives 0". */
export function modComplement(sum: number, divisor: number): number {
  const remainder = sum % divisor;
  return remainder === 0 ? 0 : divisor - remainder;
}

/** Repeats a weight pattern to `length` entries (2,1 -> 2,1,2,1,…). */
export function cycle(pattern: readonly number[], length: number): readonly number[] {
  return Array.from({ length }, (_, index) => pattern[index % pattern.length] ?? 0);
}

export const w21 = cycle([2, 1], 9);
export const w12 = cycle([1, 2], 9);
export const w371 = cycle([3, 7, 1], 9);
export const w731 = cycle([7, 3, 1], 9);
export const w3971 = cycle([3, 9, 7, 1], 9);
export const w31 = cycle([3, 1], 9);
export const w2to7 = cycle([2, 3, 4, 5, 6, 7], 9);
export const w2to10 = [2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
export const w2to9and2 = [2, 3, 4, 5, 6, 7, 8, 9, 2] as const;
export const w2to9and1 = [2, 3, 4, 5, 6, 7, 8, 9, 1] as const;
export const w2to9and3 = [2, 3, 4, 5, 6, 7, 8, 9, 3] as const;
export const w248 = [2, 4, 8, 5, 10, 9, 7, 3, 6] as const;

/** Method 00 over the `count` positions ending at `last`; check digit at `checkAt`. */
export function passes00(account: string, last = 9, count = 9, checkAt = 10): boolean {
  return mod10(crossWeightedSum(account, last, w21, count)) === at(account, checkAt);
}

/** Method 01 family: modulus 10 without digit sums. */
export function passes01(
  account: string,
  weights: readonly number[],
  last = 9,
  checkAt = 10,
): boolean {
  return mod10(weightedSum(account, last, weights)) === at(account, checkAt);
}

/** Method 06 family: modulus 11, remainder 0 or 1 gives check digit 0. */
export function passes06(
  account: string,
  weights: readonly number[],
  last = 9,
  checkAt = 10,
): boolean {
  return mod11Lenient(weightedSum(account, last, weights)) === at(account, checkAt);
}

/** Method 02 family: modulus 11, remainder 1 means the account is invalid. */
export function passes02(
  account: string,
  weights: readonly number[],
  last = 9,
  checkAt = 10,
): boolean {
  return mod11Strict(weightedSum(account, last, weights)) === at(account, checkAt);
}

/** Modulus 7 (methods 51 D, 73 C, 83 C, …): divisor minus remainder. */
export function passesMod7(
  account: string,
  weights: readonly number[],
  last = 9,
  checkAt = 10,
): boolean {
  return modComplement(weightedSum(account, last, weights), 7) === at(account, checkAt);
}

/** Transformation table of the iterated transformation (M10H), rows 1..4 by position from the right. */
const transformRows: readonly (readonly number[])[] = [
  [0, 1, 5, 9, 3, 7, 4, 8, 2, 6],
  [0, 1, 7, 6, 9, 8, 3, 2, 5, 4],
  [0, 1, 8, 4, 6, 2, 9, 5, 7, 3],
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
];

/** Method 29 (also 27, 69, B8, C5): iterated transformation over positions 1-9, check digit 10. */
export function passesIteratedTransformation(account: string): boolean {
  let sum = 0;
  for (let offset = 0; offset < 9; offset++) {
    const row = transformRows[offset % transformRows.length] ?? [];
    sum += row[at(account, 9 - offset)] ?? 0;
  }
  return mod10(sum) === checkDigit(account);
}

/** Positions first..last (1-based, inclusive) read as one decimal number, without building a string. */
export function digitsValue(account: string, first: number, last: number): number {
  let value = 0;
  for (let position = first; position <= last; position++)
    value = value * 10 + at(account, position);
  return value;
}

/** Account as a number from its first nine positions (check digit excluded). */
export function leadingNineAsNumber(account: string): number {
  return digitsValue(account, 1, 9);
}

/** True when the 10-digit account lies in [low, high] (both given as 10-digit strings). */
export function inRange(account: string, low: string, high: string): boolean {
  return account >= low && account <= high;
}
