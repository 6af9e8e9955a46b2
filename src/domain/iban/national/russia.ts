import type { Rng } from '../../rng.js';
import { rngDigits } from '../../rng.js';
import { replaceAt } from './bban-math.js';
import {
  defineRule,
  type NationalCheckAt,
  type NationalCheckOutcome,
  type NationalRule,
} from './types.js';

/**
 * RU BBAN: BIK 9n, then the 20-character account split 5n + 15c. The Bank of Russia control key is account
 * position 9: over the BIK's last three digits followed by the 20 account digits, weights 7,1,3 repeating,
 * the sum of the products is 0 mod 10. Account position 6 may carry one of the Latin look-alikes of the Cyrillic
 * clearing-currency letters A B C E H K M P T X, which count as 0-9 (that is why the registry types the tail
 * alphanumeric). A credit institution's BIK ends 050-999; lower endings belong to Bank of Russia units, whose
 * accounts key over other digits: those are answered not_checked rather than guessed, and generation draws a
 * credit-institution ending (a given Bank of Russia BIK is refused by the engine, which never rewrites given codes).
 */
const accountStart = 9; // BBAN offset of the 20-character account
const keyOffset = accountStart + 8; // account position 9
const currencyLetterOffset = accountStart + 5; // account position 6
const weights: readonly number[] = [7, 1, 3];
const codeZero = 48;
const clearingLetters = 'ABCEHKMPTX';

function digitAt(text: string, index: number, letterAllowed: boolean): number {
  const digit = text.charCodeAt(index) - codeZero;
  if (digit >= 0 && digit <= 9) return digit;
  return letterAllowed ? clearingLetters.indexOf(text.charAt(index)) : -1;
}

/** The weighted sum over BIK digits 7-9 and the account (key position counted as `key`), or -1 if not numeric. */
function keySum(text: string, start: number, key: number): number {
  let sum = 0;
  for (let index = 0; index < 23; index++) {
    const at = index < 3 ? start + 6 + index : start + accountStart + index - 3;
    const digit =
      at === start + keyOffset ? key : digitAt(text, at, at === start + currencyLetterOffset);
    if (digit < 0) return -1;
    sum += (digit * (weights[index % 3] as number)) % 10;
  }
  return sum;
}

/** First BIK ending of a credit institution; lower endings are Bank of Russia units. */
const creditInstitutionBikEndingMin = 50;

function isBankOfRussiaUnit(text: string, start: number): boolean {
  const ending =
    (text.charCodeAt(start + 6) - codeZero) * 100 +
    (text.charCodeAt(start + 7) - codeZero) * 10 +
    (text.charCodeAt(start + 8) - codeZero);
  return ending < creditInstitutionBikEndingMin;
}

const checkAt: NationalCheckAt = (text, start): NationalCheckOutcome => {
  if (isBankOfRussiaUnit(text, start)) return 'not_checked';
  const key = text.charCodeAt(start + keyOffset) - codeZero;
  if (key < 0 || key > 9) return 'failed';
  const sum = keySum(text, start, key);
  if (sum < 0) return 'not_checked'; // letters outside the currency position: not a Russian account number
  return sum % 10 === 0 ? 'passed' : 'failed';
};

/** The key digit: 3 times the other positions' sum, mod 10 (3 is its own weight's inverse pair: 3 x 7 = 21). */
function keyDigitOf(bban: string): number {
  return ((keySum(bban, 0, 0) % 10) * 3) % 10;
}

export const russiaRule: NationalRule = defineRule({
  countryCode: 'RU',
  rule: 'Bank of Russia control key: account position 9, weights 7,1,3 over BIK digits 7-9 and the 20-digit account, sum 0 mod 10',
  source:
    'Bank of Russia, procedure for calculating the control key of an account number (BIK-based, weights 7,1,3)',
  checkAt,
  complete(bban: string, rng: Rng): string {
    let draft = bban;
    if (isBankOfRussiaUnit(draft, 0)) {
      const ending =
        creditInstitutionBikEndingMin +
        (Number(rngDigits(rng, 3)) % (1000 - creditInstitutionBikEndingMin));
      draft = replaceAt(draft, 6, String(ending).padStart(3, '0'));
    }
    // Account digits only (a letter at the currency position is kept: it counts as a digit).
    for (let index = accountStart; index < accountStart + 20; index++) {
      if (digitAt(draft, index, index === currencyLetterOffset) < 0)
        draft = replaceAt(draft, index, rngDigits(rng, 1));
    }
    return replaceAt(draft, keyOffset, String(keyDigitOf(draft)));
  },
});
