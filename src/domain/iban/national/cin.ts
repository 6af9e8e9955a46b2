import {
  defineRule,
  type NationalCheckAt,
  type NationalCheckOutcome,
  type NationalRule,
} from './types.js';
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

/**
 * The CIN letter's char code for the BBAN starting at `base` in `text` (its own first character is
 * ignored). Odd and even positions alternate, so the loop takes them in pairs: no parity test.
 */
export function cinCodeOf(text: string, base = 0): number {
  let sum = 0;
  const end = base + bbanLength;
  let index = base + firstChecked; // the 1st checked character (odd position)
  for (; index + 1 < end; index += 2) {
    sum +=
      (oddPositionValues[valueOf(text.charCodeAt(index))] ?? 0) +
      valueOf(text.charCodeAt(index + 1));
  }
  if (index < end) sum += oddPositionValues[valueOf(text.charCodeAt(index))] ?? 0;
  return codeA + (sum % 26);
}

const checkAt: NationalCheckAt = (text, start): NationalCheckOutcome =>
  text.charCodeAt(start) === cinCodeOf(text, start) ? 'passed' : 'failed';

export function cinRule(countryCode: string, source: string): NationalRule {
  return defineRule({
    countryCode,
    rule: 'CIN letter (1st BBAN character) over ABI 5n + CAB 5n + account 12c, odd/even value tables mod 26',
    source,
    checkAt,
    complete(bban, rng): string {
      void rng; // the CIN is a pure function of the other positions
      return replaceAt(bban, 0, String.fromCharCode(cinCodeOf(bban)));
    },
  });
}
