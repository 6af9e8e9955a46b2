import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isValidBBAN } from 'ibantools';
import { croatiaRule } from './iso7064.js';
import { noRegistryContext } from './types.js';
import {
  assertCheckPositionChangesFail,
  assertCompletedDraftsPass,
  assertMutationsFailOnCompletedDrafts,
  bbanOfExample,
  draftBban,
  testRng,
} from '../../../../test/helpers/rule-test-kit.js';

const structure = '7!n10!n';
const checkPositions = [6, 16];

describe('HR: ISO 7064 MOD 11,10 on bank and account', () => {
  it('passes the SWIFT registry example and fails every change of its check digits', () => {
    assertCheckPositionChangesFail(
      croatiaRule,
      bbanOfExample('HR1210010051863000160'),
      checkPositions,
    );
  });
  it('follows the ISO 7064 MOD 11,10 steps (hand-computed on zeros)', () => {
    // p = 10; per digit: s = (p + d) mod 10, 0 → 10; p = 2s mod 11. Zeros give p = 9, 7, 3, 6, 1, 2
    // after 6 digits (check (11 − 2) mod 10 = 9), then 4, 8, 5 after 9 digits (check 6).
    const completed = croatiaRule.complete('00000000000000000', testRng('hr'), noRegistryContext);
    assert.equal(completed, '00000090000000006');
  });
  it('completes random drafts so they pass, changing only the two check digits', () => {
    assertCompletedDraftsPass(croatiaRule, structure, checkPositions);
  });
  it('fails every single change of the check digits of completed drafts', () => {
    assertMutationsFailOnCompletedDrafts(croatiaRule, structure, checkPositions);
  });
  it('agrees with ibantools on random BBANs', () => {
    const rng = testRng('ibantools-hr');
    for (let sample = 0; sample < 1000; sample++) {
      const draft = draftBban(structure, rng);
      const bban = sample % 2 === 0 ? draft : croatiaRule.complete(draft, rng, noRegistryContext);
      assert.equal(
        croatiaRule.check(bban, noRegistryContext) === 'passed',
        isValidBBAN(bban, 'HR'),
        bban,
      );
    }
  });
});
