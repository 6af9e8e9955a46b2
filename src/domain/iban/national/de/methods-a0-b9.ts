import {
  method00,
  method01,
  method02,
  method03,
  method04,
  method05,
  method06,
  method10,
  method20,
  method29,
} from './methods-00-29.js';
import { method32, method53, sachkonto51 } from './methods-30-59.js';
import { method93 } from './methods-80-99.js';
import {
  type GermanMethodTable,
  at,
  checkDigit,
  inRange,
  mod11Lenient,
  passes00,
  passes02,
  passes06,
  passesMod7,
  significantLength,
  w2to10,
  weightedSum,
} from './weights.js';

/** Weight lists of single methods as the Bundesbank gives them (first weight on the rightmost position), hoisted so that a check allocates no array. */
const methodA0Weights = [2, 4, 8, 5, 10] as const;
const methodB9Weights = [1, 2, 3, 4, 5, 6] as const;

const w2to7x6 = [2, 3, 4, 5, 6, 7] as const;
const w2to6 = [2, 3, 4, 5, 6] as const;
/** B0: only 10-digit accounts exist; a digit from this set at position 8 means no check digit. */
const fullLength = 10;
const b0UncheckedAtPosition8 = new Set([1, 2, 3, 6]);
/** B9: 2 leading zeros -> variant 1, 3 leading zeros -> variant 2, anything else is invalid. */
const b9Variant1Zeros = 2;
const b9Variant2Zeros = 3;
/** B9: a failed check digit is retried raised by this amount (modulo 10). */
const b9Retry = 5;
const b9Variant1Weights = [1, 3, 2, 1, 3, 2, 1] as const;

/** Positions 1-7 all zero: no check digit. Otherwise weights 2,4,8,5,10 on positions 5-9. */
export function methodA0(account: string): boolean {
  if (account.startsWith('0000000')) return true;
  return mod11Lenient(weightedSum(account, 9, methodA0Weights)) === checkDigit(account);
}

/** Only 8- or 10-digit accounts; method 00 on positions 3-9. */
export function methodA1(account: string): boolean {
  const length = significantLength(account);
  return (length === 8 || length === fullLength) && passes00(account, 9, 7);
}

export const methodA2 = (account: string): boolean => method00(account) || method04(account);
export const methodA3 = (account: string): boolean => method00(account) || method10(account);

/** Accounts xx99xxxxxx: variant 3 (positions 5-9) then 4; others: 1 (modulus 11), 2 (modulus 7), then 4. */
export function methodA4(account: string): boolean {
  if (at(account, 3) === 9 && at(account, 4) === 9)
    return passes06(account, w2to6) || method93(account);
  return passes06(account, w2to7x6) || passesMod7(account, w2to7x6) || method93(account);
}

/** Method 00; on failure 10-digit accounts starting with 9 are invalid, all others try method 10. */
export function methodA5(account: string): boolean {
  return method00(account) || (at(account, 1) !== 9 && method10(account));
}

export const methodA6 = (account: string): boolean =>
  at(account, 2) === 8 ? method00(account) : method01(account);
export const methodA7 = (account: string): boolean => method00(account) || method03(account);

export function methodA8(account: string): boolean {
  if (at(account, 3) === 9) return sachkonto51(account);
  return passes06(account, w2to7x6) || passes00(account, 9, 6);
}

export const methodA9 = (account: string): boolean => method01(account) || method06(account);

export function methodB0(account: string): boolean {
  if (significantLength(account) !== fullLength || at(account, 1) === 8) return false;
  return b0UncheckedAtPosition8.has(at(account, 8)) || method06(account);
}

export const methodB1 = (account: string): boolean =>
  method05(account) || method01(account) || method00(account);
export const methodB2 = (account: string): boolean =>
  at(account, 1) <= 7 ? method02(account) : method00(account);
export const methodB3 = (account: string): boolean =>
  at(account, 1) <= 8 ? method32(account) : method06(account);
export const methodB4 = (account: string): boolean =>
  at(account, 1) === 9 ? method00(account) : passes02(account, w2to10);

/** Weights 7,3,1 (method 05); on failure accounts starting with 8 or 9 are invalid, others try 00. */
export function methodB5(account: string): boolean {
  return method05(account) || (at(account, 1) < 8 && method00(account));
}

/** 10-digit accounts and 02691-02699xxxxx: method 20; the other 9-digit accounts: method 53 (ESER). */
export function methodB6(account: string, bankCode: string): boolean | 'not_checked' {
  if (at(account, 1) !== 0 || inRange(account, '0269100000', '0269999999'))
    return method20(account);
  return method53(account, bankCode);
}

export function methodB7(account: string): boolean {
  const checked =
    inRange(account, '0001000000', '0005999999') || inRange(account, '0700000000', '0899999999');
  return !checked || method01(account);
}

/** Method 20, then 29, then two 10-digit ranges without a check digit. */
export function methodB8(account: string): boolean {
  if (method20(account) || method29(account)) return true;
  return (
    inRange(account, '5100000000', '5999999999') || inRange(account, '9010000000', '9109999999')
  );
}

const raisedBy5 = (digit: number): number => (digit + b9Retry) % 10;

export function methodB9(account: string): boolean {
  const zeros = fullLength - significantLength(account);
  const check = checkDigit(account);
  if (zeros === b9Variant1Zeros) {
    let sum = 0;
    for (let offset = 0; offset < b9Variant1Weights.length; offset++) {
      const weight = b9Variant1Weights[offset] ?? 0;
      sum += (at(account, 9 - offset) * weight + weight) % 11;
    }
    const computed = sum % 10;
    return computed === check || raisedBy5(computed) === check;
  }
  if (zeros !== b9Variant2Zeros) return false;
  const computed = weightedSum(account, 9, methodB9Weights) % 11;
  return computed === check || raisedBy5(computed) === check;
}

export const methodsA0toB9: GermanMethodTable = {
  A0: methodA0,
  A1: methodA1,
  A2: methodA2,
  A3: methodA3,
  A4: methodA4,
  A5: methodA5,
  A6: methodA6,
  A7: methodA7,
  A8: methodA8,
  A9: methodA9,
  B0: methodB0,
  B1: methodB1,
  B2: methodB2,
  B3: methodB3,
  B4: methodB4,
  B5: methodB5,
  B6: methodB6,
  B7: methodB7,
  B8: methodB8,
  B9: methodB9,
};
