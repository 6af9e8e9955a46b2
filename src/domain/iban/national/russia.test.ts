import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateIban } from '../validate.js';
import { ibanCheckDigits } from '../mod97.js';
import { bbanOfExample, draftBban, testRng } from '../../../../test/helpers/rule-test-kit.js';
import { russiaRule } from './russia.js';
import { noRegistryContext } from './types.js';

const structure = '9!n5!n15!c';
const keyIndex = 17; // BBAN offset of account position 9
const example = bbanOfExample('RU0304452522540817810538091310419');

describe('RU: Bank of Russia control key (weights 7,1,3 over BIK digits 7-9 and the 20-digit account)', () => {
  it('passes the SWIFT registry example and fails every other key digit', () => {
    assert.equal(russiaRule.check(example, noRegistryContext), 'passed');
    for (let digit = 0; digit <= 9; digit++) {
      if (String(digit) === example.charAt(keyIndex)) continue;
      const changed = example.slice(0, keyIndex) + digit + example.slice(keyIndex + 1);
      assert.equal(russiaRule.check(changed, noRegistryContext), 'failed', changed);
    }
  });

  it('fails any single changed digit of the BIK ending or the account', () => {
    for (const index of [6, 7, 8, ...Array.from({ length: 20 }, (_, i) => 9 + i)]) {
      const original = example.charCodeAt(index) - 48;
      const changed = example.slice(0, index) + ((original + 1) % 10) + example.slice(index + 1);
      assert.equal(russiaRule.check(changed, noRegistryContext), 'failed', `position ${index}`);
    }
  });

  it('counts a clearing-currency letter at account position 6 as its digit (A=0 ... X=9)', () => {
    const withLetter = `${example.slice(0, 14)}P${example.slice(15)}`; // P stands for 7
    const withDigit = `${example.slice(0, 14)}7${example.slice(15)}`;
    assert.equal(
      russiaRule.check(withLetter, noRegistryContext),
      russiaRule.check(withDigit, noRegistryContext),
    );
    const completed = russiaRule.complete(withLetter, testRng('ru-letter'), noRegistryContext);
    assert.equal(completed.charAt(14), 'P', 'the letter is kept');
    assert.equal(russiaRule.check(completed, noRegistryContext), 'passed');
  });

  it('is not_checked for Bank of Russia BIKs (ending 000-049) and for letters elsewhere', () => {
    const centre = `044525049${example.slice(9)}`;
    assert.equal(russiaRule.check(centre, noRegistryContext), 'not_checked');
    const completed = russiaRule.complete(centre, testRng('ru-centre'), noRegistryContext);
    assert.ok(
      Number(completed.slice(6, 9)) >= 50,
      'a drafted Bank of Russia ending becomes a credit-institution one',
    );
    assert.equal(russiaRule.check(completed, noRegistryContext), 'passed');
    const letter = `${example.slice(0, 20)}Q${example.slice(21)}`;
    assert.equal(russiaRule.check(letter, noRegistryContext), 'not_checked');
  });

  it('completes 2,000 random drafts so they pass, keeping every credit-institution BIK, and the IBAN validates', () => {
    const rng = testRng('ru-complete');
    let completedCount = 0;
    for (let draftIndex = 0; draftIndex < 2_000; draftIndex++) {
      const draft = draftBban(structure, rng);
      const completed = russiaRule.complete(draft, rng, noRegistryContext);
      if (Number(draft.slice(6, 9)) >= 50)
        assert.equal(completed.slice(0, 9), draft.slice(0, 9), 'BIK unchanged');
      assert.equal(russiaRule.check(completed, noRegistryContext), 'passed', completed);
      const verdict = validateIban(
        `RU${ibanCheckDigits('RU', completed)}${completed}`,
        noRegistryContext,
      );
      assert.equal(verdict.valid, true);
      assert.equal(verdict.nationalCheck, 'passed');
      completedCount++;
    }
    assert.equal(completedCount, 2_000);
  });
});
