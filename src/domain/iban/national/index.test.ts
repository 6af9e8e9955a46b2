import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  completeNationalCheckDigits,
  countriesWithNationalRules,
  nationalCheck,
  nationalRuleOf,
} from './index.js';
import { noRegistryContext } from './types.js';
import { testRng } from '../../../../test/helpers/rule-test-kit.js';

/** Country codes of the RULES.md rows whose status column starts with "enforced". */
function enforcedCodesInRulesMd(): string[] {
  const text = readFileSync(new URL('./RULES.md', import.meta.url), 'utf8');
  const section = text.slice(text.indexOf('## Enforced'), text.indexOf('## Not enforced'));
  const codes: string[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const status = cells[5] ?? '';
    if (!status.startsWith('enforced')) continue;
    codes.push(...(cells[1] ?? '').split(/\s+/).filter((code) => /^[A-Z]{2}$/.test(code)));
  }
  return codes.sort();
}

describe('national rules table', () => {
  it('RULES.md lists exactly the countries that have a rule', () => {
    assert.deepEqual(enforcedCodesInRulesMd(), countriesWithNationalRules());
  });

  it('keys every rule by its own country code, with a rule text and a source', () => {
    for (const code of countriesWithNationalRules()) {
      const rule = nationalRuleOf(code);
      assert.equal(rule?.countryCode, code);
      assert.ok((rule?.rule.length ?? 0) > 10 && (rule?.source.length ?? 0) > 10, code);
    }
  });

  it('covers the countries the brief names', () => {
    const required =
      'AL BA BE CZ DE EE ES FI FR HR HU IS IT MC ME MK MR NO PL PT RS SI SK SM TL TN'.split(' ');
    for (const code of required) assert.ok(nationalRuleOf(code), code);
  });

  it('answers not_applicable and leaves the BBAN alone where no rule is enforced', () => {
    for (const [code, bban] of [
      ['NL', 'ABNA0417164300'],
      ['GB', 'NWBK60161331926819'],
      ['AT', '1904300234573201'],
    ] as const) {
      assert.equal(nationalRuleOf(code), undefined);
      assert.equal(nationalCheck(code, bban, noRegistryContext), 'not_applicable');
      assert.equal(completeNationalCheckDigits(code, bban, testRng(code), noRegistryContext), bban);
    }
  });

  it('delegates check and complete to the country rule', () => {
    const completed = completeNationalCheckDigits(
      'BE',
      '539007547000',
      testRng('be'),
      noRegistryContext,
    );
    assert.equal(completed, '539007547034');
    assert.equal(nationalCheck('BE', completed, noRegistryContext), 'passed');
    assert.equal(nationalCheck('BE', '539007547035', noRegistryContext), 'failed');
  });
});
