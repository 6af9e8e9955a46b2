// Goal: every rule's in-place hot-path check (`checkAt`, what validateIban calls) gives the same
// outcome as `check` on the sliced BBAN, wherever the BBAN sits in the text and whether or not the
// caller hands over the BBAN's MOD 97-10 remainder. Method: random drafts (some completed, some
// not) of every rule country's registry structure, behind a random prefix.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countryFormatOf } from '../countries.js';
import { mod97Continue } from '../mod97.js';
import { rngBelow } from '../../rng.js';
import { germanMethods } from './de/index.js';
import { countriesWithNationalRules, nationalRuleOf } from './index.js';
import { draftBban, testRng } from '../../../../test/helpers/rule-test-kit.js';
import type { NationalContext, NationalRule } from './types.js';

const samplesPerCountry = 600;
const prefixMax = 6;

/** SYNTHETIC registry stub: every bank code gets one of the implemented Bundesbank methods. */
const everyMethodContext: NationalContext = {
  accountCheckMethod(countryCode, bankCode) {
    if (countryCode !== 'DE') return undefined;
    let hash = 0;
    for (let index = 0; index < bankCode.length; index++)
      hash = (hash * 31 + bankCode.charCodeAt(index)) % 1_000_003;
    return germanMethods[hash % germanMethods.length];
  },
};

function ruleOf(code: string): NationalRule {
  const rule = nationalRuleOf(code);
  assert.ok(rule !== undefined, code);
  return rule;
}

describe('NationalRule.checkAt', () => {
  it('is implemented by every rule, so validateIban never slices a BBAN for the rule', () => {
    for (const code of countriesWithNationalRules())
      assert.equal(typeof ruleOf(code).checkAt, 'function', code);
  });

  for (const code of countriesWithNationalRules()) {
    it(`${code}: same outcome as check, at any offset, with and without the precomputed remainder`, () => {
      const rule = ruleOf(code);
      const format = countryFormatOf(code);
      assert.ok(format !== undefined, code);
      const checkAt = rule.checkAt;
      assert.ok(checkAt !== undefined);
      const rng = testRng(`check-at-${code}`);
      const seen = new Set<string>();
      for (let sample = 0; sample < samplesPerCountry; sample++) {
        const draft = draftBban(format.bbanSpec, rng);
        const bban = sample % 2 === 0 ? rule.complete(draft, rng, everyMethodContext) : draft;
        const prefix = 'X9'.repeat(prefixMax).slice(0, rngBelow(rng, prefixMax + 1));
        const expected = rule.check(bban, everyMethodContext);
        seen.add(expected);
        const remainder = mod97Continue(0, bban, 0, bban.length) % 97;
        assert.equal(
          checkAt(prefix + bban, prefix.length, everyMethodContext),
          expected,
          `${code} ${prefix}|${bban}`,
        );
        assert.equal(
          checkAt(prefix + bban, prefix.length, everyMethodContext, remainder),
          expected,
          `${code} ${bban} r=${remainder}`,
        );
      }
      assert.ok(seen.has('passed'), `${code}: some samples pass`);
    });
  }

  it('uses the handed-over remainder for the BBAN mod 97 rules (and still answers not_checked for MK letters)', () => {
    const rs = ruleOf('RS').checkAt;
    const mk = ruleOf('MK').checkAt;
    assert.ok(rs !== undefined && mk !== undefined);
    const bban = '260005601001611379'; // registry example RS35260005601001611379
    assert.equal(rs(bban, 0, everyMethodContext), 'passed');
    // A remainder that contradicts the digits decides: proof that the rule did not recompute it.
    assert.equal(rs(bban, 0, everyMethodContext, 2), 'failed');
    assert.equal(rs(`RS35${bban}`, 4, everyMethodContext, 1), 'passed');
    assert.equal(mk('2500A0000058984', 0, everyMethodContext, 1), 'not_checked');
  });
});
