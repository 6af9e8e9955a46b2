import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isValidBBAN } from 'ibantools';
import { albaniaRule } from './albania.js';
import { czechRule, slovakRule } from './czech-slovak.js';
import { estoniaRule } from './estonia.js';
import { icelandRule } from './iceland.js';
import { norwayRule } from './norway.js';
import { polandRule } from './poland.js';
import { noRegistryContext } from './types.js';
import type { NationalRule } from './types.js';
import {
  assertCheckPositionChangesFail,
  assertCompletedDraftsPass,
  assertMutationsFailOnCompletedDrafts,
  bbanOfExample,
  draftBban,
  range,
  testRng,
} from '../../../../test/helpers/rule-test-kit.js';

interface Case {
  rule: NationalRule;
  structure: string; // SWIFT IBAN registry BBAN structure
  checkPositions: readonly number[];
  changeable: readonly number[]; // check positions plus the positions `complete` may redraw
  examples: readonly string[];
  ibantools: boolean; // ibantools implements the same rule
}

const cases: readonly Case[] = [
  {
    rule: norwayRule,
    structure: '4!n6!n1!n',
    checkPositions: [10],
    changeable: range(4, 11),
    examples: ['NO9386011117947'],
    ibantools: true,
  },
  {
    rule: polandRule,
    structure: '8!n16!n',
    checkPositions: [7],
    changeable: [7],
    examples: ['PL61109010140000071219812874'],
    ibantools: true,
  },
  {
    rule: albaniaRule,
    structure: '8!n16!c',
    checkPositions: [7],
    changeable: [7],
    examples: ['AL47212110090000000235698741'],
    ibantools: false,
  },
  {
    rule: estoniaRule,
    structure: '2!n2!n11!n1!n',
    checkPositions: [15],
    changeable: [15],
    examples: ['EE382200221020145685'],
    ibantools: true,
  },
  // CZ/SK: ibantools accepts check digit 1 where the decree's mod 11 has no digit (needs 10): not compared
  {
    rule: czechRule,
    structure: '4!n6!n10!n',
    checkPositions: [9, 19],
    changeable: range(4, 20),
    examples: ['CZ6508000000192000145399'],
    ibantools: false,
  },
  {
    rule: slovakRule,
    structure: '4!n6!n10!n',
    checkPositions: [9, 19],
    changeable: range(4, 20),
    examples: ['SK3112000000198742637541'],
    ibantools: false,
  },
  {
    rule: icelandRule,
    structure: '4!n2!n6!n10!n',
    checkPositions: [20],
    changeable: [18, 19, 20],
    examples: ['IS140159260076545510730339'],
    ibantools: false,
  },
];

describe('weighted-sum rules (NO, PL, AL, EE, CZ, SK, IS)', () => {
  for (const { rule, structure, checkPositions, changeable, examples, ibantools } of cases) {
    describe(rule.countryCode, () => {
      it('passes the SWIFT registry example and fails every change of its check digits', () => {
        for (const iban of examples)
          assertCheckPositionChangesFail(rule, bbanOfExample(iban), checkPositions);
      });
      it('completes random drafts so they pass, changing only check and redraw positions', () => {
        assertCompletedDraftsPass(rule, structure, changeable);
      });
      it('fails every single change of the check digits of completed drafts', () => {
        assertMutationsFailOnCompletedDrafts(rule, structure, checkPositions);
      });
      if (ibantools) {
        it('agrees with ibantools on random BBANs', () => {
          const rng = testRng(`ibantools-${rule.countryCode}`);
          for (let sample = 0; sample < 1000; sample++) {
            const draft = draftBban(structure, rng);
            const bban = sample % 2 === 0 ? draft : rule.complete(draft, rng, noRegistryContext);
            assert.equal(
              rule.check(bban, noRegistryContext) === 'passed',
              isValidBBAN(bban, rule.countryCode),
              bban,
            );
          }
        });
      }
    });
  }

  it('NO: a number needing check digit 10 fails and is redrawn in the account part only', () => {
    // 0000 00000 6x: weight 2 on the 6 → 12 ≡ 1 (mod 11) → would need check digit 10, so every digit fails
    for (let digit = 0; digit <= 9; digit++) {
      assert.equal(norwayRule.check(`0000000006${digit}`, noRegistryContext), 'failed');
    }
    const completed = norwayRule.complete('00000000060', testRng('no-10'), noRegistryContext);
    assert.equal(completed.slice(0, 4), '0000');
    assert.equal(norwayRule.check(completed, noRegistryContext), 'passed');
  });

  it('CZ: a prefix needing check digit 10 fails for every digit (ibantools would accept 1)', () => {
    // prefix 00001x: weight 2 on the 1 → sum 2 → needs 9; prefix 00005x: 5·2 = 10 → needs 1; 00006x: 12 ≡ 1 → needs 10
    for (let digit = 0; digit <= 9; digit++) {
      assert.equal(czechRule.check(`080000006${digit}0000000000`, noRegistryContext), 'failed');
    }
  });

  it('IS: the kennitala check digit is the 9th kennitala digit, weights 3,2,7,6,5,4,3,2', () => {
    // kennitala 5510730339 of the registry example: 5·3+5·2+1·7+0·6+7·5+3·4+0·3+3·2 = 85 ≡ 8 → 11 − 8 = 3
    const bban = bbanOfExample('IS140159260076545510730339');
    assert.equal(bban.charAt(20), '3');
    assert.equal(icelandRule.check(bban, noRegistryContext), 'passed');
  });
});
