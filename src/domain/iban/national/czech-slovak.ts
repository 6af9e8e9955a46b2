import type { NationalRule } from './types.js';
import type { CheckedSegment } from './weighted-segments.js';
import { weightedSegmentsRule } from './weighted-segments.js';

/**
 * CZ and SK BBAN: bank 4n, account prefix 6n, basic account number 10n. Each account part
 * (left-padded with zeros) has weighted sum ≡ 0 mod 11, its last digit being the check:
 * prefix weights 10,5,8,4,2,1; basic part weights 6,3,7,9,10,5,8,4,2,1.
 * A part needing a check digit of 10 has no valid number: `complete` redraws that part's other digits.
 */
const segments: readonly CheckedSegment[] = [
  { start: 4, weights: [10, 5, 8, 4, 2, 1], modulus: 11, redrawStart: 4, redrawEnd: 9 },
  {
    start: 10,
    weights: [6, 3, 7, 9, 10, 5, 8, 4, 2, 1],
    modulus: 11,
    redrawStart: 10,
    redrawEnd: 19,
  },
];
const rule =
  'MOD 11 over prefix 6n (weights 10,5,8,4,2,1) and account 10n (weights 6,3,7,9,10,5,8,4,2,1)';

export const czechRule: NationalRule = weightedSegmentsRule(
  'CZ',
  rule,
  'Česká národní banka, Decree No. 169/2011 Coll. (rules for constructing account numbers)',
  segments,
);

export const slovakRule: NationalRule = weightedSegmentsRule(
  'SK',
  rule,
  'Národná banka Slovenska, Opatrenie č. 8/2009 (bank account number structure)',
  segments,
);
