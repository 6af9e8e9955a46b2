import {
  defineRule,
  type NationalCheckAt,
  type NationalCheckOutcome,
  type NationalRule,
} from './types.js';
import { replaceAt, weightedDigitSum } from './bban-math.js';

const codeZero = 48; // '0': digit value = char code − 48

/**
 * ES BBAN: bank 4n, branch 4n, DC 2n, account 10n (Código Cuenta Cliente).
 * DC1 covers "00" + bank + branch, DC2 the account; both mod 11 with weights 1,2,4,8,5,10,9,7,3,6
 * (2^i mod 11), digit = 11 − (sum mod 11), where 11 is written 0 and 10 is written 1.
 */
// The leading "00" of the first block takes weights 1 and 2, so the 8 real digits start at weight 4.
const bankBranchWeights: readonly number[] = [4, 8, 5, 10, 9, 7, 3, 6];
const accountWeights: readonly number[] = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6];
const firstDc = 8;
const secondDc = 9;
const accountStart = 10;

function dcOf(sum: number): number {
  const digit = 11 - (sum % 11);
  return digit === 11 ? 0 : digit === 10 ? 1 : digit;
}

/** `base`: where the BBAN starts in `text`. */
function expectedDc1(text: string, base: number): number {
  return dcOf(weightedDigitSum(text, base, bankBranchWeights));
}

function expectedDc2(text: string, base: number): number {
  return dcOf(weightedDigitSum(text, base + accountStart, accountWeights));
}

const checkAt: NationalCheckAt = (text, start): NationalCheckOutcome =>
  text.charCodeAt(start + firstDc) - codeZero === expectedDc1(text, start) &&
  text.charCodeAt(start + secondDc) - codeZero === expectedDc2(text, start)
    ? 'passed'
    : 'failed';

export const spainRule: NationalRule = defineRule({
  countryCode: 'ES',
  rule: 'Two DC digits (positions 9-10): mod 11, weights 1,2,4,8,5,10,9,7,3,6 over 00+bank+branch and over the account',
  source:
    'Código Cuenta Cliente (CCC) check digits, Spanish banking association (AEB/CSB) standard',
  checkAt,
  complete(bban, rng): string {
    void rng; // both digits are pure functions of the other positions
    return replaceAt(bban, firstDc, `${expectedDc1(bban, 0)}${expectedDc2(bban, 0)}`);
  },
});
