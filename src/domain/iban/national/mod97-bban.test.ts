import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isValidBBAN } from 'ibantools';
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

// SWIFT IBAN registry structures and example IBANs (Kosovo's from the CBK 2015 IBAN notice).
const countries: readonly { code: string; structure: string; examples: readonly string[] }[] = [
  { code: 'BA', structure: '3!n3!n8!n2!n', examples: ['BA391290079401028494'] },
  { code: 'ME', structure: '3!n13!n2!n', examples: ['ME25505000012345678951'] },
  { code: 'MK', structure: '3!n10!c2!n', examples: ['MK07250120000058984'] },
  { code: 'PT', structure: '4!n4!n11!n2!n', examples: ['PT50000201231234567890154'] },
  { code: 'RS', structure: '3!n13!n2!n', examples: ['RS35260005601001611379'] },
  { code: 'SI', structure: '5!n8!n2!n', examples: ['SI56263300012039086', 'SI56191000000123438'] },
  { code: 'TL', structure: '3!n14!n2!n', examples: ['TL380080012345678910157'] },
  { code: 'XK', structure: '4!n10!n2!n', examples: ['XK051212012345678906'] },
];
// ibantools implements the same rule (checkMod9710BBAN) for these; used as an independent cross-check.
const ibantoolsCovers = new Set(['BA', 'ME', 'MK', 'PT', 'RS', 'SI']);

function ruleOf(code: string): NationalRule {
  const rule = nationalRuleOf(code);
  assert.ok(rule, `${code} has a rule`);
  return rule;
}

describe('ISO 7064 MOD 97-10 over the BBAN', () => {
  for (const { code, structure, examples } of countries) {
    describe(code, () => {
      const rule = ruleOf(code);
      it('passes the published examples and fails every change of their check digits', () => {
        for (const iban of examples) {
          const bban = bbanOfExample(iban);
          const checkPositions = [bban.length - 2, bban.length - 1];
          assertCheckPositionChangesFail(rule, bban, checkPositions);
        }
      });
      it('completes random drafts so they pass, changing only the check digits (letters redrawn)', () => {
        const length = draftBban(structure, testRng('len')).length;
        const letterPositions = structure.includes('c')
          ? Array.from({ length }, (_, index) => index)
          : [];
        assertCompletedDraftsPass(rule, structure, [length - 2, length - 1, ...letterPositions]);
      });
      it('fails every single change of the check digits of completed drafts', () => {
        const length = draftBban(structure, testRng('len')).length;
        assertMutationsFailOnCompletedDrafts(rule, structure, [length - 2, length - 1]);
      });
      if (ibantoolsCovers.has(code)) {
        it('agrees with ibantools on random all-digit BBANs', () => {
          const rng = testRng(`ibantools-${code}`);
          const digitsOnly = structure.replace(/c/g, 'n');
          for (let sample = 0; sample < 500; sample++) {
            const bban =
              sample % 2 === 0
                ? draftBban(digitsOnly, rng)
                : rule.complete(draftBban(digitsOnly, rng), rng, noRegistryContext);
            assert.equal(
              rule.check(bban, noRegistryContext) === 'passed',
              isValidBBAN(bban, code),
              bban,
            );
          }
        });
      }
    });
  }

  it('accepts the ISO 7064 equivalent check 01 for a body whose computed check is 98 (ISO 7064 verification is remainder 1)', () => {
    const rule = ruleOf('RS');
    const rng = testRng('rs-98');
    let found = 0;
    for (let sample = 0; sample < 20_000 && found < 3; sample++) {
      const completed = rule.complete(draftBban('3!n13!n2!n', rng), rng, noRegistryContext);
      if (!completed.endsWith('98')) continue;
      found++;
      assert.equal(rule.check(`${completed.slice(0, -2)}01`, noRegistryContext), 'passed');
      assert.equal(rule.check(`${completed.slice(0, -2)}00`, noRegistryContext), 'failed');
    }
    assert.ok(found > 0, 'found a body with check 98');
  });

  it('answers not_checked (not failed) for an MK account with letters', () => {
    assert.equal(ruleOf('MK').check('2500A0000058984', noRegistryContext), 'not_checked');
  });
});
