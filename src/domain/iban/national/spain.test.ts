import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isValidBBAN } from 'ibantools';
import { spainRule } from './spain.js';
import { noRegistryContext } from './types.js';
import {
  assertCheckPositionChangesFail,
  assertCompletedDraftsPass,
  assertMutationsFailOnCompletedDrafts,
  bbanOfExample,
  draftBban,
  testRng,
} from '../../../../test/helpers/rule-test-kit.js';

const structure = '4!n4!n1!n1!n10!n';
const checkPositions = [8, 9];

describe('ES: CCC control digits', () => {
  it('passes the SWIFT registry example and fails every change of its DC digits', () => {
    assertCheckPositionChangesFail(
      spainRule,
      bbanOfExample('ES9121000418450200051332'),
      checkPositions,
    );
  });
  it('writes 11 as 0 and 10 as 1', () => {
    // bank+branch 00000000 → sum 0 → 11 → 0; account 0000000001 (weight 6) → 11 − 6 = 5
    assert.equal(
      spainRule.complete('00000000990000000001', testRng('es'), noRegistryContext),
      '00000000050000000001',
    );
    // account 0000000010: weight 3 → 11 − 3 = 8; account 1000000000: weight 1 → 10 → written 1
    assert.equal(
      spainRule.complete('00000000991000000000', testRng('es'), noRegistryContext),
      '00000000011000000000',
    );
  });
  it('completes random drafts so they pass, changing only the DC digits', () => {
    assertCompletedDraftsPass(spainRule, structure, checkPositions);
  });
  it('fails every single change of the DC digits of completed drafts', () => {
    assertMutationsFailOnCompletedDrafts(spainRule, structure, checkPositions);
  });
  it('agrees with ibantools on random BBANs', () => {
    const rng = testRng('ibantools-es');
    for (let sample = 0; sample < 1000; sample++) {
      const draft = draftBban(structure, rng);
      const bban = sample % 2 === 0 ? draft : spainRule.complete(draft, rng, noRegistryContext);
      assert.equal(
        spainRule.check(bban, noRegistryContext) === 'passed',
        isValidBBAN(bban, 'ES'),
        bban,
      );
    }
  });
});
