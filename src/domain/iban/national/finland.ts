import type { NationalCheckOutcome, NationalRule } from './types.js';
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

/** Luhn over [0, checkIndex): the digit next to the check is doubled, then every second one. */
function luhnCheckDigit(bban: string): number {
  let sum = 0;
  for (let index = checkIndex - 1; index >= 0; index -= 2) {
    sum += doubled[bban.charCodeAt(index) - codeZero] ?? 0;
    if (index > 0) sum += bban.charCodeAt(index - 1) - codeZero;
  }
  return (10 - (sum % 10)) % 10;
}

export function finlandRule(countryCode: string): NationalRule {
  return {
    countryCode,
    rule: 'Luhn (mod 10, weights 2,1 from the right) over the first 13 digits; check digit at position 14',
    source: 'Finance Finland (Finanssiala): Finnish account number machine format and check digit',
    check(bban): NationalCheckOutcome {
      return (bban.charCodeAt(checkIndex) - codeZero) === luhnCheckDigit(bban) ? 'passed' : 'failed';
    },
    complete(bban, rng): string {
      void rng; // pure function of the other positions
      return replaceAt(bban, checkIndex, String(luhnCheckDigit(bban)));
    },
  };
}
