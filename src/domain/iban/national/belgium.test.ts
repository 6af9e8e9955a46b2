import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isValidBBAN } from 'ibantools';
import { belgiumRule } from './belgium.js';
import { noRegistryContext } from './types.js';
import {
  assertCheckPositionChangesFail,
  assertCompletedDraftsPass,
  assertMutationsFailOnCompletedDrafts,
  bbanOfExample,
  draftBban,
  testRng,
} from '../../../../test/helpers/rule-test-kit.js';

const structure = '3!n7!n2!n';
const checkPositions = [10, 11];

describe('BE: first 10 digits mod 97, 0 → 97', () => {
  it('passes the SWIFT registry example and fails every change of its check digits', () => {
    assertCheckPositionChangesFail(belgiumRule, bbanOfExample('BE68539007547034'), checkPositions);
  });
  it('writes remainder 0 as 97 and rejects 00', () => {
    // 0000000097: first 10 digits 97·k ≡ 0 mod 97
    assert.equal(belgiumRule.check('000000009797', noRegistryContext), 'passed');
    assert.equal(belgiumRule.check('000000009700', noRegistryContext), 'failed');
    assert.equal(
      belgiumRule.complete('000000009712', testRng('be'), noRegistryContext),
      '000000009797',
    );
  });
  it('fails a wrong check', () => {
    assert.equal(belgiumRule.check('539007547035', noRegistryContext), 'failed');
  });
  it('completes random drafts so they pass, changing only the check digits', () => {
    assertCompletedDraftsPass(belgiumRule, structure, checkPositions);
  });
  it('fails every single change of the check digits of completed drafts', () => {
    assertMutationsFailOnCompletedDrafts(belgiumRule, structure, checkPositions);
  });
  it('agrees with ibantools on random BBANs', () => {
    const rng = testRng('ibantools-be');
    for (let sample = 0; sample < 1000; sample++) {
      const draft = draftBban(structure, rng);
      const bban = sample % 2 === 0 ? draft : belgiumRule.complete(draft, rng, noRegistryContext);
      assert.equal(
        belgiumRule.check(bban, noRegistryContext) === 'passed',
        isValidBBAN(bban, 'BE'),
        bban,
      );
    }
  });
});
