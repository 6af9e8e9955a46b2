import type { NationalRule } from './types.js';
import { weightedSegmentsRule } from './weighted-segments.js';

/**
 * AL BBAN: bank 3n, branch 4n, check 1n, account 16c. The check digit closes the 8-digit
 * bank + branch code: weights 9,7,3,1,9,7,3 (1 for the check digit), sum ≡ 0 mod 10.
 * The account part carries no national check.
 */
export const albaniaRule: NationalRule = weightedSegmentsRule(
  'AL',
  'Bank-branch check digit (position 8): weights 9,7,3,1,9,7,3 over bank 3n + branch 4n, mod 10',
  'Bank of Albania bank/branch code with control digit (IBAN registry structure 3!n4!n1!n16!c)',
  [{ start: 0, weights: [9, 7, 3, 1, 9, 7, 3, 1], modulus: 10, redrawStart: 3, redrawEnd: 7 }],
);
