import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isValidBBAN } from 'ibantools';
import { hungaryRule } from './hungary.js';
import { noRegistryContext } from './types.js';
import {
  assertCheckPositionChangesFail,
  assertCompletedDraftsPass,
  assertMutationsFailOnCompletedDrafts,
  bbanOfExample,
  draftBban,
  testRng,
} from '../../../../test/helpers/rule-test-kit.js';

const structure = '3!n4!n1!n15!n1!n';
const checkPositions = [7, 23];

describe('HU: 9-7-3-1 check digits', () => {
  it('passes the SWIFT registry example (a 2×8 account) and fails every change of its check digits', () => {
    const bban = bbanOfExample('HU42117730161111101800000000');
    assertCheckPositionChangesFail(hungaryRule, bban, [7, 15, 23]);
  });
  it('completes random drafts so they pass, changing only the check digits', () => {
    assertCompletedDraftsPass(hungaryRule, structure, checkPositions);
  });
  it('keeps a drafted 2×8 account in short form: its check goes to position 16, the tail stays zero', () => {
    const rng = testRng('hu-short');
    for (let sample = 0; sample < 200; sample++) {
      const draft = `${draftBban('16!n', rng)}00000000`;
      const completed = hungaryRule.complete(draft, rng, noRegistryContext);
      assert.ok(completed.endsWith('00000000'), completed);
      assert.equal(hungaryRule.check(completed, noRegistryContext), 'passed');
      assert.deepEqual(
        [...completed].filter(
          (char, index) => char !== draft.charAt(index) && index !== 7 && index !== 15,
        ),
        [],
      );
    }
  });
  it('fails every single change of the check digits of completed drafts', () => {
    assertMutationsFailOnCompletedDrafts(hungaryRule, structure, checkPositions);
  });
  it('agrees with ibantools on random BBANs, 3×8 and 2×8 forms', () => {
    const rng = testRng('ibantools-hu');
    for (let sample = 0; sample < 1000; sample++) {
      const draft =
        sample % 4 < 2 ? draftBban(structure, rng) : `${draftBban('16!n', rng)}00000000`;
      const bban = sample % 2 === 0 ? draft : hungaryRule.complete(draft, rng, noRegistryContext);
      assert.equal(
        hungaryRule.check(bban, noRegistryContext) === 'passed',
        isValidBBAN(bban, 'HU'),
        bban,
      );
    }
  });
});
