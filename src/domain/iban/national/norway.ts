import type { NationalRule } from './types.js';
import { weightedSegmentsRule } from './weighted-segments.js';

/**
 * NO BBAN: bank 4n, account 6n, check 1n (kontonummer). MOD 11 with weights 5,4,3,2,7,6,5,4,3,2;
 * check = 11 − remainder (remainder 0 → 0). A remainder of 1 would need 10: such numbers are not
 * issued, so `complete` redraws the 6 account digits (the bank code stays as drafted).
 */
export const norwayRule: NationalRule = weightedSegmentsRule(
  'NO',
  'MOD 11 over bank 4n + account 6n, weights 5,4,3,2,7,6,5,4,3,2; check digit 11',
  'Norwegian account number (kontonummer) MOD 11 standard, Bits AS / Finance Norway',
  [
    {
      start: 0,
      weights: [5, 4, 3, 2, 7, 6, 5, 4, 3, 2, 1],
      modulus: 11,
      redrawStart: 4,
      redrawEnd: 10,
    },
  ],
);
