import { method87A } from './method-87.js';
import { method00, method06, method10, method19 } from './methods-00-29.js';
import { method32, method33, sachkonto51 } from './methods-30-59.js';
import { passesMod7CrossSum } from './methods-60-79.js';
import {
  type GermanMethodTable,
  at,
  checkDigit,
  crossWeightedSum,
  inRange,
  leadingNineAsNumber,
  mod10,
  mod11Lenient,
  modComplement,
  passes00,
  passes01,
  passes02,
  passes06,
  passesMod7,
  significantLength,
  w12,
  weightedSum,
} from './weights.js';

/** Weight lists of single methods as the Bundesbank gives them (first weight on the rightmost position), hoisted so that a check allocates no array. */
const method90Weights = [2, 1, 2, 1, 2, 1] as const;
const method91Variant1 = [2, 3, 4, 5, 6, 7] as const;
const method91Variant2 = [7, 6, 5, 4, 3, 2] as const;
const method91Variant3 = [2, 3, 4, 0, 5, 6, 7, 8, 9, 10] as const;
const method91Variant4 = [2, 4, 8, 5, 10, 9] as const;
const method92Weights = [3, 7, 1, 3, 7, 1] as const;
const method98Weights = [3, 1, 7, 3, 1, 7, 3] as const;

const w2to8 = [2, 3, 4, 5, 6, 7, 8] as const;
const w2to7x6 = [2, 3, 4, 5, 6, 7] as const;
const w2to6 = [2, 3, 4, 5, 6] as const;
const w21x5 = [2, 1, 2, 1, 2] as const;
/** Method 97 accounts have 5 to 10 digits. */
const method97MinimumDigits = 5;
/** Method 95: account ranges without a check digit (Bundesbank list), as [low, high]. */
const method95Unchecked: readonly (readonly [string, string])[] = [
  ['0000000001', '0001999999'],
  ['0009000000', '0025999999'],
  ['0396000000', '0499999999'],
  ['0700000000', '0799999999'],
  ['0910000000', '0989999999'],
];

const sachkonto = (account: string): boolean => at(account, 3) === 9;
const positions3And4Are99 = (account: string): boolean =>
  at(account, 3) === 9 && at(account, 4) === 9;
/** Modulus 7 over positions 5-9 with weights 2..6; check digits 7-9 cannot result. */
const customerC = (account: string): boolean =>
  checkDigit(account) < 7 && passesMod7(account, w2to6);

export function method80(account: string): boolean {
  if (sachkonto(account)) return sachkonto51(account);
  return passes00(account, 9, 5) || passesMod7CrossSum(account);
}

export const method81 = (account: string): boolean =>
  sachkonto(account) ? sachkonto51(account) : method32(account);
export const method82 = (account: string): boolean =>
  positions3And4Are99(account) ? method10(account) : method33(account);

/** Customer accounts A (32), B (33), C (modulus 7); Sachkonten (positions 3-4 = 99) weights 2..8. */
export function method83(account: string): boolean {
  if (positions3And4Are99(account)) return passes06(account, w2to8);
  return passes06(account, w2to7x6) || passes06(account, w2to6) || customerC(account);
}

/** Positions 5-9 only: A modulus 11, B modulus 7, C modulus 10 (weights 2,1,2,1,2, plain products). */
export function method84(account: string): boolean {
  if (sachkonto(account)) return sachkonto51(account);
  if (passes06(account, w2to6)) return true;
  if (modComplement(weightedSum(account, 9, w2to6), 7) === checkDigit(account)) return true;
  return modComplement(weightedSum(account, 9, w21x5), 10) === checkDigit(account);
}

export function method85(account: string): boolean {
  if (positions3And4Are99(account)) return passes02(account, w2to8);
  return passes06(account, w2to7x6) || passes06(account, w2to6) || customerC(account);
}

export function method86(account: string): boolean {
  if (sachkonto(account)) return sachkonto51(account);
  return passes00(account, 9, 6) || method32(account);
}

export function method87(account: string): boolean {
  if (sachkonto(account)) return sachkonto51(account);
  return (
    method87A(account) ||
    method33(account) ||
    passesMod7(account, w2to6) ||
    passes06(account, w2to7x6)
  );
}

export const method88 = (account: string): boolean =>
  passes06(account, sachkonto(account) ? w2to8 : w2to7x6);

/** 8-9 digits: method 10; 7 digits: digit sums of positions 4-9 × 2..7, modulus 11; others unchecked. */
export function method89(account: string): boolean {
  const length = significantLength(account);
  if (length === 8 || length === 9) return method10(account);
  if (length !== 7) return true;
  return mod11Lenient(crossWeightedSum(account, 9, w2to7x6)) === checkDigit(account);
}

/** Customer accounts try A, B, C, D, E, G in that order; Sachkonten only F. */
export function method90(account: string): boolean {
  if (sachkonto(account)) return passes06(account, w2to8);
  const check = checkDigit(account);
  if (passes06(account, w2to7x6) || passes06(account, w2to6) || customerC(account)) return true;
  if (check !== 9 && modComplement(weightedSum(account, 9, w2to6), 9) === check) return true;
  if (modComplement(weightedSum(account, 9, w21x5), 10) === check) return true;
  return modComplement(weightedSum(account, 9, method90Weights), 7) === check;
}

/** Check digit at position 7; four weightings tried in order. */
export function method91(account: string): boolean {
  if (passes06(account, method91Variant1, 6, 7)) return true;
  if (passes06(account, method91Variant2, 6, 7)) return true;
  if (mod11Lenient(weightedSum(account, 10, method91Variant3)) === at(account, 7)) return true;
  return passes06(account, method91Variant4, 6, 7);
}

export const method92 = (account: string): boolean => passes01(account, method92Weights);

/** Customer number in 1-5 (check 6) or, after "0000", in 5-9 (check 10); modulus 11, then 7. */
export function method93(account: string): boolean {
  const shifted = account.startsWith('0000');
  const last = shifted ? 9 : 5;
  const checkAt = shifted ? 10 : 6;
  return passes06(account, w2to6, last, checkAt) || passesMod7(account, w2to6, last, checkAt);
}

export const method94 = (account: string): boolean =>
  mod10(crossWeightedSum(account, 9, w12)) === checkDigit(account);

export function method95(account: string): boolean {
  for (const [low, high] of method95Unchecked) if (inRange(account, low, high)) return true;
  return method06(account);
}

export function method96(account: string): boolean {
  return method19(account) || method00(account) || inRange(account, '0001300000', '0099399999');
}

/** The first nine digits as a number, modulo 11, is the check digit (10 gives 0). */
export function method97(account: string): boolean {
  if (significantLength(account) < method97MinimumDigits) return false;
  const remainder = leadingNineAsNumber(account) % 11;
  return (remainder === 10 ? 0 : remainder) === checkDigit(account);
}

export const method98 = (account: string): boolean =>
  passes01(account, method98Weights) || method32(account);
export const method99 = (account: string): boolean =>
  inRange(account, '0396000000', '0499999999') || method06(account);

export const methods80to99: GermanMethodTable = {
  '80': method80,
  '81': method81,
  '82': method82,
  '83': method83,
  '84': method84,
  '85': method85,
  '86': method86,
  '87': method87,
  '88': method88,
  '89': method89,
  '90': method90,
  '91': method91,
  '92': method92,
  '93': method93,
  '94': method94,
  '95': method95,
  '96': method96,
  '97': method97,
  '98': method98,
  '99': method99,
};
