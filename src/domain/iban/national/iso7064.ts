import {
  defineRule,
  type NationalCheckAt,
  type NationalCheckOutcome,
  type NationalRule,
} from './types.js';
import { replaceAt } from './bban-math.js';

const codeZero = 48; // '0': digit value = char code − 48

/**
 * ISO 7064 MOD 11,10 (hybrid system), used by Croatia.
 * HR BBAN: bank 7n (6 digits + check), account 10n (9 digits + check).
 * Each part's last digit is its MOD 11,10 check over the digits before it.
 */

/**
 * One ISO 7064 MOD 11,10 step as a table: next[product × 10 + digit], where product is 1..10 and
 * next = (((product + digit) mod 10, 0 → 10) × 2) mod 11. Replaces two `%` per digit on the hot path.
 */
const initialProduct = 10;
const nextProduct: readonly number[] = Array.from({ length: 11 * 10 }, (_, cell) => {
  const sum = (Math.floor(cell / 10) + (cell % 10)) % 10;
  return ((sum === 0 ? 10 : sum) * 2) % 11;
});

/** ISO 7064 MOD 11,10 running value after the digits in [start, end). */
function mod1110Product(text: string, start: number, end: number): number {
  let product = initialProduct;
  for (let index = start; index < end; index++)
    product = nextProduct[product * 10 + (text.charCodeAt(index) - codeZero)] ?? 0;
  return product;
}

/** The check digit c such that (product + c) mod 10 = 1. */
function mod1110CheckDigit(text: string, start: number, end: number): number {
  return (11 - mod1110Product(text, start, end)) % 10;
}

const bankCheck = 6;
const accountStart = 7;
const accountCheck = 16;

const checkAt: NationalCheckAt = (text, start): NationalCheckOutcome =>
  text.charCodeAt(start + bankCheck) - codeZero ===
    mod1110CheckDigit(text, start, start + bankCheck) &&
  text.charCodeAt(start + accountCheck) - codeZero ===
    mod1110CheckDigit(text, start + accountStart, start + accountCheck)
    ? 'passed'
    : 'failed';

export const croatiaRule: NationalRule = defineRule({
  countryCode: 'HR',
  rule: 'ISO 7064 MOD 11,10 over bank digits 1-6 (check at 7) and account digits 8-16 (check at 17)',
  source:
    'Hrvatska narodna banka: structure of the account number (VBDI and account, ISO 7064 MOD 11,10 control digits)',
  checkAt,
  complete(bban, rng): string {
    void rng; // both digits are pure functions of the other positions
    const withBank = replaceAt(bban, bankCheck, String(mod1110CheckDigit(bban, 0, bankCheck)));
    return replaceAt(
      withBank,
      accountCheck,
      String(mod1110CheckDigit(withBank, accountStart, accountCheck)),
    );
  },
});
