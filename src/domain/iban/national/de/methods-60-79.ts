import { method04, method28 } from './methods-00-29.js';
import { sachkonto51 } from './methods-30-59.js';
import {
  type GermanMethodTable,
  at,
  checkDigit,
  crossWeightedSum,
  digitSum,
  mod10,
  modComplement,
  passes00,
  passes06,
  passesIteratedTransformation,
  significantLength,
  w21,
  w2to7,
  weightedSum,
} from './weights.js';

/** Weight lists of single methods as the Bundesbank gives them (first weight on the rightmost position), hoisted so that a check allocates no array. */
const branchStemWeights = [2, 1, 2, 1, 2, 1, 2] as const;
const method64Weights = [2, 4, 8, 5, 10, 9] as const;
const method66Weights = [2, 3, 4, 5, 6, 0, 0, 7] as const;
const method71Weights = [1, 2, 3, 4, 5, 6] as const;
const passesMod7CrossSumWeights = [2, 1, 2, 1, 2] as const;
const method74Weights = [2, 1, 2, 1, 2, 1, 2, 1, 2] as const;
const method77FirstWeights = [1, 2, 3, 4, 5] as const;
const method77SecondWeights = [5, 4, 3, 4, 5] as const;

const w2to7x6 = [2, 3, 4, 5, 6, 7] as const;
/** Method 68: accounts have 6 to 10 digits. */
const method68MinimumDigits = 6;
/** Method 74: accounts have 2 to 10 digits; 6-digit ones get the half-decade alternative. */
const method74MinimumDigits = 2;
const method74HalfDecadeDigits = 6;
/** Method 76: the account type digit may only take these values. */
const method76AccountTypes = new Set([0, 4, 6, 7, 8, 9]);
/** Method 78: 8-digit accounts carry no check digit. */
const method78UncheckedDigits = 8;

export const method60 = (account: string): boolean => passes00(account, 9, 7);

/** BBBSSSSPAU: positions 1-7, check digit 8; account type 8 adds positions 9 and 10. */
function branchStem(account: string, includeTail: boolean): boolean {
  let sum = crossWeightedSum(account, 7, branchStemWeights);
  if (includeTail) sum += at(account, 9) + digitSum(at(account, 10) * 2);
  return mod10(sum) === at(account, 8);
}

export const method61 = (account: string): boolean => branchStem(account, at(account, 9) === 8);
export const method62 = (account: string): boolean => passes00(account, 7, 5, 8);

/** Position 1 must be 0; base number 2-7, check 8, or (sub-account 00 omitted) base 4-9, check 10. */
export function method63(account: string): boolean {
  if (at(account, 1) !== 0) return false;
  if (passes00(account, 7, 6, 8)) return true;
  return at(account, 2) === 0 && at(account, 3) === 0 && passes00(account, 9, 6, 10);
}

export const method64 = (account: string): boolean => passes06(account, method64Weights, 6, 7);
export const method65 = (account: string): boolean => branchStem(account, at(account, 9) === 9);

/** Position 1 is 0; a 9 at position 2 means no check digit; remainder 0 -> 1, 1 -> 0. */
export function method66(account: string): boolean {
  if (at(account, 1) !== 0) return false;
  if (at(account, 2) === 9) return true;
  const remainder = weightedSum(account, 9, method66Weights) % 11;
  const expected = remainder === 0 ? 1 : remainder === 1 ? 0 : 11 - remainder;
  return expected === checkDigit(account);
}

export const method67 = (account: string): boolean => passes00(account, 7, 7, 8);

/** 10 digits: positions 4-9 with a 9 at position 4; 9 digits 4xxxxxxxx: no check; 6-9 digits: two variants. */
export function method68(account: string): boolean {
  const length = significantLength(account);
  if (length === 10) return at(account, 4) === 9 && passes00(account, 9, 6);
  if (length < method68MinimumDigits) return false;
  if (length === 9 && at(account, 2) === 4) return true;
  if (passes00(account)) return true;
  // The same sum with positions 3 and 4 read as zeros (weights 2,1,… from position 9: 4 → 1, 3 → 2).
  const withoutPositions3And4 =
    crossWeightedSum(account, 9, w21) - at(account, 4) - digitSum(at(account, 3) * 2);
  return mod10(withoutPositions3And4) === checkDigit(account);
}

export function method69(account: string): boolean {
  if (account.startsWith('93')) return true;
  if (account.startsWith('97')) return passesIteratedTransformation(account);
  return method28(account) || passesIteratedTransformation(account);
}

/** Method 06; when position 4 is 5 or positions 4-5 are 69, positions 1-3 stay out. */
export function method70(account: string): boolean {
  const shortStem = at(account, 4) === 5 || (at(account, 4) === 6 && at(account, 5) === 9);
  return passes06(account, shortStem ? w2to7x6 : w2to7);
}

/** Positions 2-7 weighted 6..1 from the left; remainder 1 gives check digit 1. */
export function method71(account: string): boolean {
  const remainder = weightedSum(account, 7, method71Weights) % 11;
  const expected = remainder === 0 ? 0 : remainder === 1 ? 1 : 11 - remainder;
  return expected === checkDigit(account);
}

export const method72 = (account: string): boolean => passes00(account, 9, 6);

/** Modulus 7 over the digit sums of positions 5-9 weighted 2,1,2,1,2 (73 variant 3, 80 method B). */
export function passesMod7CrossSum(account: string): boolean {
  return (
    modComplement(crossWeightedSum(account, 9, passesMod7CrossSumWeights), 7) ===
    checkDigit(account)
  );
}

export function method73(account: string): boolean {
  if (at(account, 3) === 9) return sachkonto51(account);
  return passes00(account, 9, 6) || passes00(account, 9, 5) || passesMod7CrossSum(account);
}

/** Method 00 (6-digit accounts may also round up to the next half decade), then method 04. */
export function method74(account: string): boolean {
  const length = significantLength(account);
  if (length < method74MinimumDigits) return false;
  const sum = crossWeightedSum(account, 9, method74Weights);
  if (mod10(sum) === checkDigit(account)) return true;
  if (length === method74HalfDecadeDigits && (mod10(sum) + 5) % 10 === checkDigit(account))
    return true;
  return method04(account);
}

/** 5-digit stem weighted 2,1,2,1,2 from the left; its place depends on the account's length. */
export function method75(account: string): boolean {
  const length = significantLength(account);
  if (length === 6 || length === 7) return passes00(account, 9, 5, 10);
  if (length !== 9) return false;
  return at(account, 2) === 9 ? passes00(account, 7, 5, 8) : passes00(account, 6, 5, 7);
}

/**
 * Account type A, stem S, check P, sub-account UU: ASSSSSSPUU, or shifted left when UU is omitted.
 * `shift` reads the shifted form in place: position p of the shifted number is p + shift here.
 */
function method76Layout(account: string, shift: number): boolean {
  if (!method76AccountTypes.has(at(account, 1 + shift))) return false;
  const remainder = weightedSum(account, 7 + shift, w2to7x6) % 11;
  return remainder !== 10 && remainder === at(account, 8 + shift);
}

/** Method 76: a sub-account "00" left out moves the layout two places to the right. */
const method76Shift = 2;

export function method76(account: string): boolean {
  if (method76Layout(account, 0)) return true;
  return account.startsWith('00') && method76Layout(account, method76Shift);
}

/** Positions 6-10 (check digit included) weighted 1..5, then 5,4,3,4,5: the sum must divide by 11. */
export function method77(account: string): boolean {
  if (weightedSum(account, 10, method77FirstWeights) % 11 === 0) return true;
  return weightedSum(account, 10, method77SecondWeights) % 11 === 0;
}

export function method78(account: string): boolean {
  return significantLength(account) === method78UncheckedDigits || passes00(account);
}

/** First digit 3-8: positions 1-9, check 10; first digit 1, 2, 9: positions 1-8, check 9; 0 is invalid. */
export function method79(account: string): boolean {
  const first = at(account, 1);
  if (first === 0) return false;
  return first >= 3 && first <= 8 ? passes00(account) : passes00(account, 8, 8, 9);
}

export const methods60to79: GermanMethodTable = {
  '60': method60,
  '61': method61,
  '62': method62,
  '63': method63,
  '64': method64,
  '65': method65,
  '66': method66,
  '67': method67,
  '68': method68,
  '69': method69,
  '70': method70,
  '71': method71,
  '72': method72,
  '73': method73,
  '74': method74,
  '75': method75,
  '76': method76,
  '77': method77,
  '78': method78,
  '79': method79,
};
