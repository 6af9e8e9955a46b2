import { at, checkDigit, crossWeightedSum, digitSum, digitsValue, mod10, w12 } from './weights.js';

/**
 * Method 57: the first two digits choose the variant. Variant 1 checks position 10, variant 2
 * checks position 3, variant 3 has no check digit, variant 4 (01-31) is a plausibility rule.
 */
const variant1Prefixes = new Set([
  51, 55, 61, 64, 65, 66, 70, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 88, 94, 95,
]);
const variant3Prefixes = new Set([40, 50, 91, 99]);
/** Variant 4 applies to prefixes 01 up to this value. */
const variant4LastPrefix = 31;
/** Variant 4: positions 3-4 hold a month 01..12 and positions 7-9 stay below this value. */
const variant4MonthMax = 12;
const variant4SerialLimit = 500;
/** Published exception that variant 4 would reject. */
const variant4Exception = '0185125434';
/** Accounts starting with these digits always count as correct (no check digit). */
const alwaysCorrectPrefixes = ['777777', '888888'] as const;

/** Weights 1,2,1,… from the left over positions 1,2,4..10, check digit at position 3. */
function variant2(account: string): boolean {
  let sum = 0;
  let index = 0;
  for (let position = 1; position <= 10; position++) {
    if (position === 3) continue;
    sum += digitSum(at(account, position) * (index % 2 === 0 ? 1 : 2));
    index++;
  }
  return mod10(sum) === at(account, 3);
}

function variant4(account: string): boolean {
  if (account === variant4Exception) return true;
  const month = digitsValue(account, 3, 4);
  const serial = digitsValue(account, 7, 9);
  return month >= 1 && month <= variant4MonthMax && serial < variant4SerialLimit;
}

export function method57(account: string): boolean {
  const prefix = digitsValue(account, 1, 2);
  if (prefix === 0) return false;
  if (variant3Prefixes.has(prefix)) return true;
  if (prefix <= variant4LastPrefix) return variant4(account);
  if (variant1Prefixes.has(prefix)) {
    for (const start of alwaysCorrectPrefixes) if (account.startsWith(start)) return true;
    return mod10(crossWeightedSum(account, 9, w12)) === checkDigit(account);
  }
  return variant2(account);
}
