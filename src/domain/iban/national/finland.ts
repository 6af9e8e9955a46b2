import {
  defineRule,
  type NationalCheckAt,
  type NationalCheckOutcome,
  type NationalRule,
} from './types.js';
import { replaceAt } from './bban-math.js';

/**
 * FI BBAN: bank 3n, account 11n: the 14-digit machine-format account number, last digit a Luhn
 * (modulus 10, weights 2,1,2,1... from the right, products' digits summed) check over the first 13.
 * Åland is covered by the registry's Finland entry (FI IBANs).
 */
const checkIndex = 13;
const codeZero = 48;

// Luhn doubling with its digit sum folded in: 2d, minus 9 when that has two digits.
const doubled: readonly number[] = [0, 2, 4, 6, 8, 1, 3, 5, 7, 9];

/**
 * Luhn over BBAN positions [0, checkIndex), the BBAN starting at `base` in `text`: the digit next
 * to the check is doubled, then every second one.
 */
function luhnCheckDigit(text: string, base: number): number {
  let sum = 0;
  for (let index = base + checkIndex - 1; index >= base; index -= 2) {
    sum += doubled[text.charCodeAt(index) - codeZero] ?? 0;
    if (index > base) sum += text.charCodeAt(index - 1) - codeZero;
  }
  return (10 - (sum % 10)) % 10;
}

const checkAt: NationalCheckAt = (text, start): NationalCheckOutcome =>
  text.charCodeAt(start + checkIndex) - codeZero === luhnCheckDigit(text, start)
    ? 'passed'
    : 'failed';

export function finlandRule(countryCode: string): NationalRule {
  return defineRule({
    countryCode,
    rule: 'Luhn (mod 10, weights 2,1 from the right) over the first 13 digits; check digit at position 14',
    source: 'Finance Finland (Finanssiala): Finnish account number machine format and check digit',
    checkAt,
    complete(bban, rng): string {
      void rng; // pure function of the other positions
      return replaceAt(bban, checkIndex, String(luhnCheckDigit(bban, 0)));
    },
  });
}
