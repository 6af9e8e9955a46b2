import { eser8, eser9 } from './eser.js';
import { method57 } from './method-57.js';
import { method01, method20 } from './methods-00-29.js';
import {
  type GermanMethodTable,
  at,
  checkDigit,
  mod11Strict,
  passes00,
  passes01,
  passes06,
  passesMod7,
  significantLength,
  w248,
  w2to10,
  w2to7,
  weightedSum,
} from './weights.js';

/** Weight lists of single methods as the Bundesbank gives them (first weight on the rightmost position), hoisted so that a check allocates no array. */
const method30Weights = [2, 1, 2, 1, 0, 0, 0, 0, 2] as const;
const method31Weights = [9, 8, 7, 6, 5, 4, 3, 2, 1] as const;
const method34Weights = [2, 4, 8, 5, 10, 9, 7] as const;
const method36Weights = [2, 4, 8, 5] as const;
const method37Weights = [2, 4, 8, 5, 10] as const;
const method38Weights = [2, 4, 8, 5, 10, 9] as const;
const method39Weights = [2, 4, 8, 5, 10, 9, 7] as const;
const method42Weights = [2, 3, 4, 5, 6, 7, 8, 9] as const;
const method43Weights = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
const method44Weights = [2, 4, 8, 5, 10] as const;
const method54Weights = [2, 3, 4, 5, 6, 7, 2] as const;
const method55Weights = [2, 3, 4, 5, 6, 7, 8, 7, 8] as const;

const w2to8 = [2, 3, 4, 5, 6, 7, 8] as const;
const w2to7x6 = [2, 3, 4, 5, 6, 7] as const;
const w2to6 = [2, 3, 4, 5, 6] as const;
/** Method 58 accounts have at least this many significant digits ("mindestens 6-stellig"). */
const method58MinimumDigits = 6;
/** Method 59: accounts shorter than this carry no check digit and count as correct. */
const method59MinimumDigits = 9;

/** Weights 2,0,0,0,0,1,2,1,2 from the left (listed here right to left), plain products. */
export const method30 = (account: string): boolean => passes01(account, method30Weights);

/** Weights 9..1 right to left on positions 1-9; the remainder itself is the check digit, 10 is invalid. */
export function method31(account: string): boolean {
  const remainder = weightedSum(account, 9, method31Weights) % 11;
  return remainder !== 10 && remainder === checkDigit(account);
}

export const method32 = (account: string): boolean => passes06(account, w2to7x6);
export const method33 = (account: string): boolean => passes06(account, w2to6);
export const method34 = (account: string): boolean => passes06(account, method34Weights, 7, 8);

/** Remainder is the check digit; remainder 10 is valid when positions 9 and 10 are equal. */
export function method35(account: string): boolean {
  const remainder = weightedSum(account, 9, w2to10) % 11;
  if (remainder === 10) return at(account, 9) === checkDigit(account);
  return remainder === checkDigit(account);
}

export const method36 = (account: string): boolean => passes06(account, method36Weights);
export const method37 = (account: string): boolean => passes06(account, method37Weights);
export const method38 = (account: string): boolean => passes06(account, method38Weights);
export const method39 = (account: string): boolean => passes06(account, method39Weights);
export const method40 = (account: string): boolean => passes06(account, w248);

/** Method 00; when position 4 is 9, positions 1-3 stay out of the calculation. */
export function method41(account: string): boolean {
  return at(account, 4) === 9 ? passes00(account, 9, 6) : passes00(account);
}

export const method42 = (account: string): boolean => passes06(account, method42Weights);

/** Weights 1..9 right to left, modulus 10 without digit sums. */
export const method43 = (account: string): boolean => passes01(account, method43Weights);

export const method44 = (account: string): boolean => passes06(account, method44Weights);

/** Method 00, except accounts starting with 0 or 48, or with 1 at position 5: no check digit. */
export function method45(account: string): boolean {
  if (at(account, 1) === 0 || at(account, 5) === 1 || account.startsWith('48')) return true;
  return passes00(account);
}

export const method46 = (account: string): boolean => passes06(account, w2to6, 7, 8);
export const method47 = (account: string): boolean => passes06(account, w2to6, 8, 9);
export const method48 = (account: string): boolean => passes06(account, w2to7x6, 8, 9);
export const method49 = (account: string): boolean => passes00(account) || method01(account);

/** Base number 1-6, check digit 7; retried with a missing sub-number "000" shifted in (read in place, 3 to the right). */
export function method50(account: string): boolean {
  if (passes06(account, w2to7x6, 6, 7)) return true;
  return account.startsWith('000') && passes06(account, w2to7x6, 9, 10);
}

/** Exception of method 51 for Sachkonten (position 3 = 9), shared by 73, 80, 81, 84, 86, 87, A8. */
export function sachkonto51(account: string): boolean {
  return passes06(account, w2to8) || passes06(account, w2to10);
}

export function method51(account: string): boolean {
  if (at(account, 3) === 9) return sachkonto51(account);
  if (passes06(account, w2to7x6) || passes06(account, w2to6) || passes00(account, 9, 6))
    return true;
  return checkDigit(account) < 7 && passesMod7(account, w2to6);
}

/** 8-digit accounts via the ESER legacy number; 10-digit accounts starting with 9 via method 20. */
export function method52(account: string, bankCode: string): boolean | 'not_checked' {
  return at(account, 1) === 9 ? method20(account) : eser8(account, bankCode);
}

/** 9-digit accounts via the ESER legacy number; 10-digit accounts starting with 9 via method 20. */
export function method53(account: string, bankCode: string): boolean | 'not_checked' {
  return at(account, 1) === 9 ? method20(account) : eser9(account, bankCode);
}

/** Positions 1-2 are always 49; remainder 0 or 1 makes the account unusable. */
export function method54(account: string): boolean {
  if (!account.startsWith('49')) return false;
  const remainder = weightedSum(account, 9, method54Weights) % 11;
  return remainder > 1 && 11 - remainder === checkDigit(account);
}

export const method55 = (account: string): boolean => passes06(account, method55Weights);

/** Results 10 and 11 are invalid, except for 10-digit accounts starting with 9 (then 7 and 8). */
export function method56(account: string): boolean {
  const result = 11 - (weightedSum(account, 9, w2to7) % 11);
  if (result < 10) return result === checkDigit(account);
  if (at(account, 1) !== 9) return false;
  return (result === 10 ? 7 : 8) === checkDigit(account);
}

/** Positions 5-9 with weights 2..6 as method 02; accounts have at least six digits. */
export function method58(account: string): boolean {
  if (significantLength(account) < method58MinimumDigits) return false;
  return mod11Strict(weightedSum(account, 9, w2to6)) === checkDigit(account);
}

export function method59(account: string): boolean {
  return significantLength(account) < method59MinimumDigits || passes00(account);
}

export const methods30to59: GermanMethodTable = {
  '30': method30,
  '31': method31,
  '32': method32,
  '33': method33,
  '34': method34,
  '35': method35,
  '36': method36,
  '37': method37,
  '38': method38,
  '39': method39,
  '40': method40,
  '41': method41,
  '42': method42,
  '43': method43,
  '44': method44,
  '45': method45,
  '46': method46,
  '47': method47,
  '48': method48,
  '49': method49,
  '50': method50,
  '51': method51,
  '52': method52,
  '53': method53,
  '54': method54,
  '55': method55,
  '56': method56,
  '57': method57,
  '58': method58,
  '59': method59,
};
