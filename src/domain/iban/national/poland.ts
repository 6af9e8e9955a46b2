import type { NationalRule } from './types.js';
import { weightedSegmentsRule } from './weighted-segments.js';

/**
 * PL BBAN: sort code 8n (bank 3n, branch 4n, check 1n), account 16n (NRB without its leading
 * two check digits, which are the IBAN's). The sort code's 8th digit: weights 3,9,7,1,3,9,7, mod 10.
 */
export const polandRule: NationalRule = weightedSegmentsRule(
  'PL',
  'Sort-code check digit (position 8): weights 3,9,7,1,3,9,7 over positions 1-7, mod 10',
  'Narodowy Bank Polski: numbering of bank accounts (NRB), sort-code (numer rozliczeniowy) check digit',
  [{ start: 0, weights: [3, 9, 7, 1, 3, 9, 7, 1], modulus: 10, redrawStart: 3, redrawEnd: 7 }],
);
