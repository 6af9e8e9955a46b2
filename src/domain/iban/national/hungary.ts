import {
  defineRule,
  type NationalCheckAt,
  type NationalCheckOutcome,
  type NationalRule,
} from './types.js';
import type { CheckedSegment } from './weighted-segments.js';
import { completeSegment, segmentPasses } from './weighted-segments.js';

/**
 * HU BBAN: bank 3n, branch 4n, check 1n, account 15n, check 1n (pénzforgalmi jelzőszám).
 * Weights 9,7,3,1 repeated, each block ≡ 0 mod 10 with its check digit last:
 *  - block 1: the 8-digit bank-branch code;
 *  - block 2: the remaining 16 digits. A 16-digit account number (8+8) is written with eight
 *    trailing zeros, its second check digit then at position 16; the zeros add nothing to the
 *    weighted sum, so one 16-digit block check covers both the 2×8 and the 3×8 form.
 */
const bankBranch: CheckedSegment = {
  start: 0,
  weights: [9, 7, 3, 1, 9, 7, 3, 1],
  modulus: 10,
  redrawStart: 3,
  redrawEnd: 7,
};
const longAccount: CheckedSegment = {
  start: 8,
  weights: [9, 7, 3, 1, 9, 7, 3, 1, 9, 7, 3, 1, 9, 7, 3, 1],
  modulus: 10,
  redrawStart: 8,
  redrawEnd: 23,
};
const shortAccount: CheckedSegment = {
  start: 8,
  weights: [9, 7, 3, 1, 9, 7, 3, 1],
  modulus: 10,
  redrawStart: 8,
  redrawEnd: 15,
};
const shortFormTail = 16; // positions 17-24 all zero: a 2×8 account number

function isShortForm(bban: string): boolean {
  for (let index = shortFormTail; index < bban.length; index++)
    if (bban.charCodeAt(index) !== 48) return false;
  return true;
}

const checkAt: NationalCheckAt = (text, start): NationalCheckOutcome =>
  segmentPasses(text, bankBranch, start) && segmentPasses(text, longAccount, start)
    ? 'passed'
    : 'failed';

export const hungaryRule: NationalRule = defineRule({
  countryCode: 'HU',
  rule: 'Weights 9,7,3,1 mod 10: check digit 8 closes bank+branch, check digit 24 (16 for 2×8 accounts) closes the account',
  source:
    'Magyar Nemzeti Bank decree on the execution of payment transactions: pénzforgalmi jelzőszám check digits',
  checkAt,
  complete(bban, rng): string {
    const first = completeSegment(bban, bankBranch, rng);
    // keep a drafted 2×8 account in its short form: its check digit sits before the zero tail
    return completeSegment(first, isShortForm(first) ? shortAccount : longAccount, rng);
  },
});
