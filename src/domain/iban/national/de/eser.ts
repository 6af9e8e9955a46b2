import { at } from './weights.js';

/**
 * ESER legacy numbers (methods 52, 53 and, through them, B6 and C0). The check digit of an
 * 8- or 9-digit account is computed on the "Kontonummer des ESER-Altsystems", which is built
 * from digits of the bank code and of the account — hence these methods need the BLZ.
 */

/** Weights right to left over the legacy number (at most 12 digits). */
const eserWeights = [2, 4, 8, 5, 10, 9, 7, 3, 6, 1, 2, 4] as const;
/** The check digit always sits at the 6th position (0-based index 5) of the legacy number. */
const eserCheckIndex = 5;
/** The legacy number's remainder must reach this value for the check digit to be correct. */
const eserTargetRemainder = 10;

const bankCodePattern = /^\d{8}$/;

/**
 * The check digit of a legacy number: the factor p in 0..9 with (sum + p × weight over the check
 * digit) mod 11 = 10, where sum leaves the check digit out. undefined when no factor reaches 10.
 */
function eserCheckDigit(legacy: string): number | undefined {
  let sum = 0;
  let checkWeight = 0;
  for (let index = legacy.length - 1, offset = 0; index >= 0; index--, offset++) {
    const weight = eserWeights[offset] ?? 0;
    if (index === eserCheckIndex) checkWeight = weight;
    else sum += (legacy.charCodeAt(index) - 48) * weight;
  }
  for (let factor = 0; factor <= 9; factor++) {
    if ((sum + factor * checkWeight) % 11 === eserTargetRemainder) return factor;
  }
  return undefined;
}

const withoutLeadingZeros = (digits: string): string => digits.replace(/^0+/, '');

/**
 * Method 52 core: 8-digit account XPXXXXXX with BLZ XXX5XXXX; legacy number is
 * BLZ digits 5-8, then X and P, then the remaining account digits without leading zeros.
 */
export function eser8(account: string, bankCode: string): boolean | 'not_checked' {
  if (!bankCodePattern.test(bankCode)) return 'not_checked';
  if (at(account, 1) !== 0 || at(account, 2) !== 0) return false;
  const legacy = `${bankCode.slice(4, 8)}${account.slice(2, 4)}${withoutLeadingZeros(account.slice(4))}`;
  return eserCheckDigit(legacy) === at(account, 4);
}

/**
 * Method 53 core: 9-digit account XTPXXXXXX with BLZ XXX5XXXX; legacy number is
 * BLZ digits 5 and 6, T, BLZ digit 8, then X and P, then the rest without leading zeros.
 */
export function eser9(account: string, bankCode: string): boolean | 'not_checked' {
  if (!bankCodePattern.test(bankCode)) return 'not_checked';
  if (at(account, 1) !== 0) return false;
  const blzPart = `${bankCode.slice(4, 6)}${account.charAt(2)}${bankCode.charAt(7)}`;
  const legacy = `${blzPart}${account.charAt(1)}${account.charAt(3)}${withoutLeadingZeros(account.slice(4))}`;
  return eserCheckDigit(legacy) === at(account, 4);
}
