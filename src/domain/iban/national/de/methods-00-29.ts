import {
  type GermanMethodTable,
  at,
  checkDigit,
  crossWeightedSum,
  digitSum,
  digitsValue,
  mod10,
  mod11Lenient,
  passes00,
  passes01,
  passes02,
  passes06,
  passesIteratedTransformation,
  w21,
  w2to10,
  w2to7,
  w2to9and1,
  w2to9and2,
  w2to9and3,
  w31,
  w371,
  w3971,
  w731,
  weightedSum,
} from './weights.js';

/** Weight lists of single methods as the Bundesbank gives them (first weight on the rightmost position), hoisted so that a check allocates no array. */
const method14Weights = [2, 3, 4, 5, 6, 7] as const;
const method15Weights = [2, 3, 4, 5] as const;
const method17Weights = [2, 1, 2, 1, 2, 1] as const;
const method23Weights = [2, 3, 4, 5, 6, 7] as const;
const method25Weights = [2, 3, 4, 5, 6, 7, 8, 9] as const;
const method28Weights = [2, 3, 4, 5, 6, 7, 8] as const;

/** Method 08 checks only from this account number on; smaller numbers carry no check digit. */
const method08FirstChecked = 60_000;
/** Method 27 switches to the iterated transformation from this account number on. */
const method27TransformFrom = 1_000_000_000;
/** Methods 13 and 26: an account written without its two-digit sub-account sits two places to the right. */
const shiftByTwo = 2;
const w2to7and2 = [2, 3, 4, 5, 6, 7, 2] as const;

export const method00 = (account: string): boolean => passes00(account);
export const method01 = (account: string): boolean => passes01(account, w371);
export const method02 = (account: string): boolean => passes02(account, w2to9and2);
export const method03 = (account: string): boolean => passes01(account, w21);
export const method04 = (account: string): boolean => passes02(account, w2to7);
export const method05 = (account: string): boolean => passes01(account, w731);
export const method06 = (account: string): boolean => passes06(account, w2to7);
export const method07 = (account: string): boolean => passes02(account, w2to10);

export function method08(account: string): boolean {
  return digitsValue(account, 1, 10) < method08FirstChecked || passes00(account);
}

export const method09 = (): boolean => true;
export const method10 = (account: string): boolean => passes06(account, w2to10);

/** Like 06 with weights 2..10, but a result of 10 (remainder 1) gives check digit 9. */
export function method11(account: string): boolean {
  const remainder = weightedSum(account, 9, w2to10) % 11;
  const expected = remainder === 0 ? 0 : remainder === 1 ? 9 : 11 - remainder;
  return expected === checkDigit(account);
}

/**
 * Base number in 2-7, check digit 8; retried with a missing sub-account "00" shifted in. Shifting
 * the account two places left puts positions 4-10 where 2-8 were, so the retry reads them in place.
 */
export function method13(account: string): boolean {
  if (passes00(account, 7, 6, 8)) return true;
  const shiftable = at(account, 1) === 0 && at(account, 2) === 0;
  return shiftable && passes00(account, 7 + shiftByTwo, 6, 8 + shiftByTwo);
}

export const method14 = (account: string): boolean => passes02(account, method14Weights);
export const method15 = (account: string): boolean => passes06(account, method15Weights);

/** 06 with weights 2..7,2,3,4; remainder 1 is valid when positions 9 and 10 are equal. */
export function method16(account: string): boolean {
  const remainder = weightedSum(account, 9, w2to7) % 11;
  if (remainder === 1) return at(account, 9) === checkDigit(account);
  return mod11Lenient(remainder) === checkDigit(account);
}

/** KSSSSSSPUU: weights 1,2,1,2,1,2 from the left on S, minus 1, modulus 11, 10 - remainder. */
export function method17(account: string): boolean {
  const sum = crossWeightedSum(account, 7, method17Weights) - 1;
  const remainder = sum % 11;
  return (remainder === 0 ? 0 : 10 - remainder) % 10 === at(account, 8);
}

export const method18 = (account: string): boolean => passes01(account, w3971);
export const method19 = (account: string): boolean => passes06(account, w2to9and1);
export const method20 = (account: string): boolean => passes06(account, w2to9and3);

/** Method 00 products, then digit sums repeated until one digit remains; check = 10 - it. */
export function method21(account: string): boolean {
  let sum = crossWeightedSum(account, 9, w21);
  while (sum > 9) sum = digitSum(sum);
  return (10 - sum) % 10 === checkDigit(account);
}

/** Weights 3,1,…; only the units digit of each product counts. */
export function method22(account: string): boolean {
  let sum = 0;
  for (let offset = 0; offset < 9; offset++)
    sum += (at(account, 9 - offset) * (w31[offset] ?? 0)) % 10;
  return mod10(sum) === checkDigit(account);
}

/** Method 16 logic on positions 1-6, check digit 7; remainder 1 needs positions 6 and 7 equal. */
export function method23(account: string): boolean {
  const remainder = weightedSum(account, 6, method23Weights) % 11;
  if (remainder === 1) return at(account, 6) === at(account, 7);
  return mod11Lenient(remainder) === at(account, 7);
}

/** Leading 3-6 counts as 0; a leading 9 zeroes positions 1-3; weights 1,2,3 from the first non-zero digit. */
export function method24(account: string): boolean {
  const first = at(account, 1);
  const ignoredUpTo = first === 9 ? 3 : first >= 3 && first <= 6 ? 1 : 0;
  let position = ignoredUpTo + 1;
  while (position <= 9 && at(account, position) === 0) position++;
  let sum = 0;
  for (let index = 0; position <= 9; position++, index++) {
    const weight = (index % 3) + 1;
    sum += (at(account, position) * weight + weight) % 11;
  }
  return sum % 10 === checkDigit(account);
}

/** Work digit at position 2; remainder 1 gives check digit 0, allowed only for work digits 8 and 9. */
export function method25(account: string): boolean {
  const remainder = weightedSum(account, 9, method25Weights) % 11;
  if (remainder === 1) return checkDigit(account) === 0 && at(account, 2) >= 8;
  return (remainder === 0 ? 0 : 11 - remainder) === checkDigit(account);
}

/** Positions 1-7, check digit 8; two leading zeros mean the number is shifted left by two (read in place). */
export function method26(account: string): boolean {
  const shift = at(account, 1) === 0 && at(account, 2) === 0 ? shiftByTwo : 0;
  return passes06(account, w2to7and2, 7 + shift, 8 + shift);
}

export function method27(account: string): boolean {
  return digitsValue(account, 1, 10) < method27TransformFrom
    ? passes00(account)
    : passesIteratedTransformation(account);
}

export const method28 = (account: string): boolean => passes06(account, method28Weights, 7, 8);
export const method29 = (account: string): boolean => passesIteratedTransformation(account);

/** Method code 12 is "frei" (unassigned) in the Bundesbank document: no entry here. */
export const methods00to29: GermanMethodTable = {
  '00': method00,
  '01': method01,
  '02': method02,
  '03': method03,
  '04': method04,
  '05': method05,
  '06': method06,
  '07': method07,
  '08': method08,
  '09': method09,
  '10': method10,
  '11': method11,
  '13': method13,
  '14': method14,
  '15': method15,
  '16': method16,
  '17': method17,
  '18': method18,
  '19': method19,
  '20': method20,
  '21': method21,
  '22': method22,
  '23': method23,
  '24': method24,
  '25': method25,
  '26': method26,
  '27': method27,
  '28': method28,
  '29': method29,
};
