import {
  method00,
  method02,
  method03,
  method04,
  method06,
  method07,
  method10,
  method15,
  method17,
  method18,
  method20,
  method21,
  method22,
  method27,
  method29,
} from './methods-00-29.js';
import { method52, method58 } from './methods-30-59.js';
import { method63, method68 } from './methods-60-79.js';
import { method95 } from './methods-80-99.js';
import {
  type GermanMethodTable,
  at,
  checkDigit,
  crossWeightedSum,
  cycle,
  inRange,
  mod10,
  modComplement,
  passes00,
  passes06,
  passesMod7,
  significantLength,
  w21,
  weightedSum,
} from './weights.js';

/** Weight lists of single methods as the Bundesbank gives them (first weight on the rightmost position), hoisted so that a check allocates no array. */
const methodC1Weights = [1, 2, 1, 2, 1, 2, 1, 2, 1] as const;

const w2to8 = [2, 3, 4, 5, 6, 7, 8] as const;
const w2to7x6 = [2, 3, 4, 5, 6, 7] as const;
/** C6: constant placed before positions 2-9, chosen by the first digit of the account. */
const c6Constants = [
  '4451970',
  '4451981',
  '4451992',
  '4451993',
  '4344992',
  '4344990',
  '4344991',
  '5499570',
  '4451994',
  '5499579',
];
/** D1 and E2 constants: a fixed six-digit stem followed by the account's first digit. */
const d1Stem = '436338';
const e2Stem = '438320';
/** D4: fixed constant placed before positions 1-9. */
const d4Constant = '428259';
/** C6 takes account positions 2-9 after its constant; D1, D4 and E2 take positions 1-9. */
const c6AccountDigits = 8;
const stemAccountDigits = 9;
/** E0 adds this value to the method 00 sum. */
const e0Addend = 7;
/** E1 replaces every digit by its ASCII code: digit + 48. */
const asciiZero = 48;
const e1Weights = [1, 2, 3, 4, 5, 6, 11, 10, 9] as const;
/** C5, 10-digit accounts: these first digits take method 29. */
const c5IteratedFirstDigits: readonly number[] = [1, 4, 5, 6, 9];

/**
 * C6, D1, D4 and E2 prolong the account to 15 digits: a constant, then the account digits up to
 * position 9, then the check digit. Method 00 over that number is the constant's share (its digits
 * weighted 2,1,… as the prolonged number places them) plus method 00 over the account digits, whose
 * weights do not move: the constant's share is summed once here, and no string is built per check.
 */
const prolongedLength = 15;
const w21Prolonged = cycle([2, 1], prolongedLength);
/** The constant fills the prolonged positions in front of the `accountDigits` digits ending at position 9. */
function constantShare(constant: string, accountDigits: number): number {
  const padded = constant + '0'.repeat(accountDigits); // zeros add nothing to the sum
  return crossWeightedSum(padded, prolongedLength, w21Prolonged);
}

function passes00WithConstant(share: number, account: string, accountDigits: number): boolean {
  return mod10(share + crossWeightedSum(account, 9, w21, accountDigits)) === checkDigit(account);
}

/** Two leading zeros: method 52 (ESER) first, then 20; everything else: method 20. */
export function methodC0(account: string, bankCode: string): boolean | 'not_checked' {
  if (significantLength(account) !== 8) return method20(account);
  const eser = method52(account, bankCode);
  if (eser === true || method20(account)) return true;
  return eser;
}

/** First digit not 5: method 17. First digit 5: weights 1,2,… from the left on 1-9, minus 1, modulus 11. */
export function methodC1(account: string): boolean {
  if (at(account, 1) !== 5) return method17(account);
  const sum = crossWeightedSum(account, 9, methodC1Weights) - 1;
  const remainder = sum % 11;
  return (remainder === 0 ? 0 : 10 - remainder) % 10 === checkDigit(account);
}

export const methodC2 = (account: string): boolean =>
  method22(account) || method00(account) || method04(account);
export const methodC3 = (account: string): boolean =>
  at(account, 1) !== 9 ? method00(account) : method58(account);
export const methodC4 = (account: string): boolean =>
  at(account, 1) !== 9 ? method15(account) : method58(account);

/** The account range decides the variant; accounts outside every range are invalid. */
export function methodC5(account: string): boolean {
  const length = significantLength(account);
  const first = at(account, 1);
  if (length === 6 && at(account, 5) >= 1 && at(account, 5) <= 8)
    return passes00(account, 9, 5, 10);
  if (length === 9 && at(account, 2) >= 1 && at(account, 2) <= 8) return passes00(account, 6, 5, 7);
  if (length === 8) return at(account, 3) >= 3 && at(account, 3) <= 5;
  if (length !== 10) return false;
  if (c5IteratedFirstDigits.includes(first)) return method29(account);
  if (first === 3) return method00(account);
  return account.startsWith('70') || account.startsWith('85');
}

const c6Shares = c6Constants.map((constant) => constantShare(constant, c6AccountDigits));
const d1Share = constantShare(d1Stem, stemAccountDigits);
const d4Share = constantShare(d4Constant, stemAccountDigits);
const e2Share = constantShare(e2Stem, stemAccountDigits);

export function methodC6(account: string): boolean {
  return passes00WithConstant(c6Shares[at(account, 1)] ?? 0, account, c6AccountDigits);
}

export const methodC7 = (account: string): boolean => method63(account) || method06(account);
export const methodC8 = (account: string): boolean =>
  method00(account) || method04(account) || method07(account);
export const methodC9 = (account: string): boolean => method00(account) || method07(account);
export const methodD0 = (account: string): boolean => account.startsWith('57') || method20(account);

export function methodD1(account: string): boolean {
  if (at(account, 1) === 8) return false;
  return passes00WithConstant(d1Share, account, stemAccountDigits);
}

export const methodD2 = (account: string): boolean =>
  method95(account) || method00(account) || method68(account);
export const methodD3 = (account: string): boolean => method00(account) || method27(account);

export function methodD4(account: string): boolean {
  return at(account, 1) !== 0 && passes00WithConstant(d4Share, account, stemAccountDigits);
}

/** Accounts xx99xxxxxx: variant 1 only; others: modulus 11, then 7, then 10 over positions 4-9. */
export function methodD5(account: string): boolean {
  if (at(account, 3) === 9 && at(account, 4) === 9) return passes06(account, w2to8);
  if (passes06(account, w2to7x6) || passesMod7(account, w2to7x6)) return true;
  return modComplement(weightedSum(account, 9, w2to7x6), 10) === checkDigit(account);
}

export const methodD6 = (account: string): boolean =>
  method07(account) || method03(account) || method00(account);

/** Method 00 digit sums, but the units digit of the sum itself is the check digit. */
export const methodD7 = (account: string): boolean =>
  crossWeightedSum(account, 9, w21) % 10 === checkDigit(account);

/** 1000000000-9999999999: method 00; 0010000000-0099999999: no check digit; the rest is invalid. */
export function methodD8(account: string): boolean {
  if (at(account, 1) !== 0) return method00(account);
  return inRange(account, '0010000000', '0099999999');
}

export const methodD9 = (account: string): boolean =>
  method00(account) || method10(account) || method18(account);
export const methodE0 = (account: string): boolean =>
  mod10(crossWeightedSum(account, 9, w21) + e0Addend) === checkDigit(account);

/** ASCII codes of positions 1-9 weighted 1,2,3,4,5,6,11,10,9 from the right; remainder 10 is invalid. */
export function methodE1(account: string): boolean {
  let sum = 0;
  for (let offset = 0; offset < e1Weights.length; offset++)
    sum += (asciiZero + at(account, 9 - offset)) * (e1Weights[offset] ?? 0);
  const remainder = sum % 11;
  return remainder !== 10 && remainder === checkDigit(account);
}

export function methodE2(account: string): boolean {
  return at(account, 1) <= 5 && passes00WithConstant(e2Share, account, stemAccountDigits);
}

export const methodE3 = (account: string): boolean => method00(account) || method21(account);
export const methodE4 = (account: string): boolean => method02(account) || method00(account);

export const methodsC0toE4: GermanMethodTable = {
  C0: methodC0,
  C1: methodC1,
  C2: methodC2,
  C3: methodC3,
  C4: methodC4,
  C5: methodC5,
  C6: methodC6,
  C7: methodC7,
  C8: methodC8,
  C9: methodC9,
  D0: methodD0,
  D1: methodD1,
  D2: methodD2,
  D3: methodD3,
  D4: methodD4,
  D5: methodD5,
  D6: methodD6,
  D7: methodD7,
  D8: methodD8,
  D9: methodD9,
  E0: methodE0,
  E1: methodE1,
  E2: methodE2,
  E3: methodE3,
  E4: methodE4,
};
