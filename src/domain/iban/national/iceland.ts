import type { NationalRule } from './types.js';
import { weightedSegmentsRule } from './weighted-segments.js';

/**
 * IS BBAN: bank/branch 4n, ledger 2n, account 6n, kennitala 10n (the holder's national ID). The
 * kennitala's 9th digit is its check: weights 3,2,7,6,5,4,3,2 over its first 8 digits, check =
 * 11 − remainder (0 → 0); remainder 1 would need 10, and no such kennitala is issued, so
 * `complete` redraws kennitala digits 7-8 (the random pair after the DDMMYY date) until it fits.
 */
const kennitalaStart = 12;
export const icelandRule: NationalRule = weightedSegmentsRule(
  'IS',
  'Kennitala check digit (BBAN position 21): weights 3,2,7,6,5,4,3,2 over kennitala digits 1-8, mod 11',
  'Registers Iceland (Þjóðskrá Íslands): kennitala check digit',
  [
    {
      start: kennitalaStart,
      weights: [3, 2, 7, 6, 5, 4, 3, 2, 1],
      modulus: 11,
      redrawStart: kennitalaStart + 6,
      redrawEnd: kennitalaStart + 8,
    },
  ],
);
