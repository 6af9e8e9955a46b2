import type { NationalRule } from './types.js';
import { weightedSegmentsRule } from './weighted-segments.js';

/**
 * EE BBAN: bank 2n, then the 14-digit domestic account number (left-padded with zeros; it repeats
 * the bank code), whose last digit is the 7-3-1 check: weights 7,3,1 repeated from the digit next
 * to the check leftwards, sum + check ≡ 0 mod 10. Read left to right over BBAN positions 3-15 the
 * weights are 7,1,3,7,1,3,...,7.
 */
export const estoniaRule: NationalRule = weightedSegmentsRule(
  'EE',
  '7-3-1 method over the domestic account (positions 3-15), check digit at position 16, mod 10',
  'Estonian Banking Association (Eesti Pangaliit): account number 7-3-1 check digit',
  [
    {
      start: 2,
      weights: [7, 1, 3, 7, 1, 3, 7, 1, 3, 7, 1, 3, 7, 1],
      modulus: 10,
      redrawStart: 4,
      redrawEnd: 15,
    },
  ],
);
