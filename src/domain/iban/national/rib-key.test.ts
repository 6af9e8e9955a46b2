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

function ruleOf(code: string): NationalRule {
  const rule = nationalRuleOf(code);
  assert.ok(rule, `${code} has a rule`);
  return rule;
}

/** CFONB's published form, computed independently: 97 − ((89·bank + 15·branch + 3·account) mod 97). */
function cfonbKey(bban: string): number {
  const table = '12345678912345678923456789';
  const numeric = [...bban]
    .map((char) => (char >= 'A' ? table.charAt(char.charCodeAt(0) - 65) : char))
    .join('');
  const bank = BigInt(numeric.slice(0, 5));
  const branch = BigInt(numeric.slice(5, 10));
  const account = BigInt(numeric.slice(10, 21));
  return 97 - Number((89n * bank + 15n * branch + 3n * account) % 97n);
}

const french = '5!n5!n11!c2!n';
const countries: readonly { code: string; structure: string; examples: readonly string[] }[] = [
  // SWIFT registry example; the second is the RIB used as an example by IbanNet's tests (30006 00001 12345678901 89)
  {
    code: 'FR',
    structure: french,
    examples: ['FR1420041010050500013M02606', 'FR7630006000011234567890189'],
  },
  { code: 'MC', structure: french, examples: ['MC5811222000010123456789030'] },
  { code: 'MR', structure: '5!n5!n11!n2!n', examples: ['MR1300020001010000123456753'] },
  { code: 'DJ', structure: '5!n5!n11!n2!n', examples: ['DJ2100010000000154000100186'] },
  { code: 'TN', structure: '2!n3!n13!n2!n', examples: ['TN5910006035183598478831'] },
];

describe('clé RIB', () => {
  for (const { code, structure, examples } of countries) {
    describe(code, () => {
      const rule = ruleOf(code);
      const length = draftBban(structure, testRng('len')).length;
      const keyPositions = [length - 2, length - 1];
      it('passes the published examples and fails every change of their key', () => {
        for (const iban of examples)
          assertCheckPositionChangesFail(rule, bbanOfExample(iban), keyPositions);
      });
      it('completes random drafts so they pass, changing only the key', () => {
        assertCompletedDraftsPass(rule, structure, keyPositions);
      });
      it('fails every single change of the key of completed drafts', () => {
        assertMutationsFailOnCompletedDrafts(rule, structure, keyPositions);
      });
    });
  }

  it('matches the CFONB 89/15/3 formula on random French drafts with letters', () => {
    const rule = ruleOf('FR');
    const rng = testRng('cfonb');
    for (let sample = 0; sample < 2000; sample++) {
      const completed = rule.complete(draftBban(french, rng), rng, noRegistryContext);
      assert.equal(Number(completed.slice(21)), cfonbKey(completed), completed);
    }
  });

  it('agrees with ibantools (checkFrenchBBAN) on random French BBANs, completed or not', () => {
    const rule = ruleOf('FR');
    const rng = testRng('ibantools-fr');
    for (let sample = 0; sample < 1000; sample++) {
      const draft = draftBban(french, rng);
      const bban = sample % 2 === 0 ? draft : rule.complete(draft, rng, noRegistryContext);
      // ibantools accepts a key of 00 where CFONB writes 97; exclude that one equivalent form
      if (bban.endsWith('00')) continue;
      assert.equal(rule.check(bban, noRegistryContext) === 'passed', isValidBBAN(bban, 'FR'), bban);
    }
  });

  it('rejects the key 00 even where the whole number is ≡ 0 mod 97 (CFONB keys run 01..97)', () => {
    const rule = ruleOf('FR');
    const rng = testRng('key-97');
    let found = 0;
    for (let sample = 0; sample < 50_000 && found < 2; sample++) {
      const completed = rule.complete(draftBban(french, rng), rng, noRegistryContext);
      if (!completed.endsWith('97')) continue;
      found++;
      assert.equal(rule.check(`${completed.slice(0, 21)}00`, noRegistryContext), 'failed');
    }
    assert.ok(found > 0, 'found a draft with key 97');
  });
});
