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
  draftBban,
  testRng,
} from '../../../../test/helpers/rule-test-kit.js';

const structure = '1!a5!n5!n12!c';

function ruleOf(code: string): NationalRule {
  const rule = nationalRuleOf(code);
  assert.ok(rule, `${code} has a rule`);
  return rule;
}

/** Independent transcription of the published odd/even tables (digits and letters share one value list). */
function referenceCin(bban: string): string {
  const odd = [
    1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23,
  ];
  let sum = 0;
  [...bban.slice(1)].forEach((char, position) => {
    const value = /\d/.test(char) ? Number(char) : char.charCodeAt(0) - 65;
    sum += position % 2 === 0 ? (odd[value] ?? Number.NaN) : value;
  });
  return String.fromCharCode(65 + (sum % 26));
}

describe('CIN (IT, SM)', () => {
  const examples: Record<string, string> = {
    IT: 'IT60X0542811101000000123456', // SWIFT registry
    SM: 'SM86U0322509800000000270100', // SWIFT registry
  };
  for (const [code, iban] of Object.entries(examples)) {
    describe(code, () => {
      const rule = ruleOf(code);
      it('passes the registry example and fails every other CIN letter', () => {
        assertCheckPositionChangesFail(rule, bbanOfExample(iban), [0]);
      });
      it('completes random drafts so they pass, changing only the CIN', () => {
        assertCompletedDraftsPass(rule, structure, [0]);
      });
      it('fails every other letter at the CIN of completed drafts', () => {
        assertMutationsFailOnCompletedDrafts(rule, structure, [0]);
      });
    });
  }
  it('matches an independent transcription of the tables on drafts with letters', () => {
    const rule = ruleOf('IT');
    const rng = testRng('cin-ref');
    for (let sample = 0; sample < 2000; sample++) {
      const completed = rule.complete(draftBban(structure, rng), rng, noRegistryContext);
      assert.equal(completed.charAt(0), referenceCin(completed), completed);
    }
  });
});
