import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nationalRuleOf } from './index.js';
import { noRegistryContext } from './types.js';
import type { NationalRule } from './types.js';
import {
  assertCheckPositionChangesFail,
  assertCompletedDraftsPass,
  assertMutationsFailOnCompletedDrafts,
  bbanOfExample,
} from '../../../../test/helpers/rule-test-kit.js';

const structure = '3!n11!n';
const checkPositions = [13];

function ruleOf(code: string): NationalRule {
  const rule = nationalRuleOf(code);
  assert.ok(rule, `${code} has a rule`);
  return rule;
}

describe('FI: Luhn on the machine-format account', () => {
  for (const code of ['FI']) {
    describe(code, () => {
      const rule = ruleOf(code);
      it('completes random drafts so they pass, changing only the check digit', () => {
        assertCompletedDraftsPass(rule, structure, checkPositions);
      });
      it('fails every single change of the check digit of completed drafts', () => {
        assertMutationsFailOnCompletedDrafts(rule, structure, checkPositions);
      });
    });
  }
  it('passes published examples and fails every change of their check digit', () => {
    // SWIFT registry example; FI1410093000123458 is the example used by IbanNet's Finnish tests
    for (const iban of ['FI2112345600000785', 'FI1410093000123458']) {
      assertCheckPositionChangesFail(ruleOf('FI'), bbanOfExample(iban), checkPositions);
    }
  });
  it('doubles the digit next to the check digit (a Luhn, not a plain digit sum)', () => {
    // 0000000000001x: the 1 is doubled → 2 → check 8
    assert.equal(ruleOf('FI').check('00000000000018', noRegistryContext), 'passed');
    assert.equal(ruleOf('FI').check('00000000000019', noRegistryContext), 'failed');
  });
});
