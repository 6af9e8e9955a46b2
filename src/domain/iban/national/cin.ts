import type { NationalCheckOutcome, NationalRule } from './types.js';
import { replaceAt } from './bban-math.js';

/**
 * CIN (Control Internal Number) of Italy and San Marino.
 * IT/SM BBAN: CIN 1a, ABI (bank) 5n, CAB (branch) 5n, account 12c.
 * Each of the 22 characters after the CIN has a value (digit → 0..9, letter → 0..25 for A..Z);
 * characters in odd positions (1st, 3rd, ... counting from 1) are converted through the table
 * below, even positions count their value as is. CIN = 'A' + (sum mod 26).
 */
const oddPositionValues: readonly number[] = [
  1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23,
];
const firstChecked = 1;
const bbanLength = 23;
const codeZero = 48;
const codeA = 65;

function valueOf(code: number): number {
  return code >= codeA ? code - codeA : code - codeZero;
}

/** The CIN letter's char code for a BBAN (its own first character is ignored). */
export function cinCodeOf(bban: string): number {
  let sum = 0;
  for (let index = firstChecked; index < bbanLength; index++) {
    const value = valueOf(bban.charCodeAt(index));
    // index 1 is the 1st checked character (odd position)
    sum += (index - firstChecked) % 2 === 0 ? (oddPositionValues[value] ?? 0) : value;
  }
  return codeA + (sum % 26);
}

export function cinRule(countryCode: string, source: string): NationalRule {
  return {
    countryCode,
    rule: 'CIN letter (1st BBAN character) over ABI 5n + CAB 5n + account 12c, odd/even value tables mod 26',
    source,
    check(bban): NationalCheckOutcome {
      return bban.charCodeAt(0) === cinCodeOf(bban) ? 'passed' : 'failed';
    },
    complete(bban, rng): string {
      void rng; // the CIN is a pure function of the other positions
      return replaceAt(bban, 0, String.fromCharCode(cinCodeOf(bban)));
    },
  };
}
