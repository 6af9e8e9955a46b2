// Goal: every catalogue case states exactly the verdict the validator gives, categories cycle
// from 'valid' so any quantity covers as many as fit, and the catalogue is deterministic per key.
// Method: every registry country x several seeds x 25 cases, each input run through validateIban.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { requestKeyOf } from '../rng.js';
import { nationalRuleOf } from './national/index.js';
import { noRegistryContext, type NationalContext } from './national/types.js';
import { countryFormatOf, countryFormats, type CountryFormat } from './countries.js';
import { ibanMod97 } from './mod97.js';
import { buildTestCases, type TestCaseCategory } from './test-cases.js';
import { limits } from '../../limits.js';
import { validateIban } from './validate.js';

const context = noRegistryContext;
const seedsPerCountry = 4;

function formatOf(code: string): CountryFormat {
  const format = countryFormatOf(code);
  assert.ok(format !== undefined, code);
  return format;
}

describe('buildTestCases: verdicts', () => {
  it('states the verdict validateIban gives, for every country and seed', () => {
    for (const format of countryFormats) {
      for (let seed = 0; seed < seedsPerCountry; seed++) {
        const key = requestKeyOf(`seed-${seed}`, `${format.code}|test-cases`);
        for (const testCase of buildTestCases(format, key, limits.testCasesQuantityMax, context)) {
          const verdict = validateIban(testCase.input, context);
          assert.equal(
            verdict.valid,
            testCase.expected_valid,
            `${testCase.case_id} ${JSON.stringify(testCase.input)}`,
          );
          assert.equal(
            verdict.error,
            testCase.expected_error,
            `${testCase.case_id} ${JSON.stringify(testCase.input)}`,
          );
          assert.equal(testCase.country_code, format.code);
          assert.ok(testCase.description.length > 0 && testCase.tags.length > 0, testCase.case_id);
        }
      }
    }
  });

  it('covers the spec families: checksum, length, malformed and country mismatch are all invalid', () => {
    const cases = buildTestCases(
      formatOf('FR'),
      requestKeyOf('families', 'FR'),
      limits.testCasesQuantityMax,
      context,
    );
    const invalid: readonly TestCaseCategory[] = [
      'checksum',
      'length',
      'malformed',
      'country_mismatch',
      'national_checksum',
      'check_digit_alias',
    ];
    for (const testCase of cases) {
      assert.equal(
        testCase.expected_valid,
        testCase.category === 'valid' ||
          (testCase.category === 'normalisation' && testCase.expected_error === null),
      );
      if (invalid.includes(testCase.category))
        assert.notEqual(testCase.expected_error, null, testCase.case_id);
    }
  });

  it('puts a country mismatch under another registry prefix', () => {
    const cases = buildTestCases(
      formatOf('DE'),
      requestKeyOf('mismatch', 'DE'),
      limits.testCasesQuantityMax,
      context,
    );
    const mismatches = cases.filter((testCase) => testCase.category === 'country_mismatch');
    assert.ok(mismatches.length >= 2);
    for (const testCase of mismatches) {
      const prefix = testCase.input.slice(0, 2);
      assert.notEqual(prefix, 'DE');
      assert.ok(countryFormatOf(prefix) !== undefined, prefix);
      assert.equal(ibanMod97(testCase.input), 1, 'check digits recomputed for the new prefix');
    }
  });

  it('keeps MOD 97-10 at 1 in alias cases tagged so', () => {
    let tagged = 0;
    for (const format of countryFormats) {
      const cases = buildTestCases(
        format,
        requestKeyOf('alias', format.code),
        limits.testCasesQuantityMax,
        context,
      );
      for (const testCase of cases.filter((c) => c.category === 'check_digit_alias')) {
        assert.ok(['00', '01', '99'].includes(testCase.input.slice(2, 4)), testCase.input);
        if (!testCase.tags.includes('mod97_still_1')) continue;
        tagged++;
        assert.equal(ibanMod97(testCase.input), 1, testCase.input);
      }
    }
    assert.ok(tagged > 200, `alias cases with MOD 97-10 = 1: ${tagged}`);
  });
});

describe('buildTestCases: categories', () => {
  it('cycles categories from valid, covering as many as the quantity allows', () => {
    const key = requestKeyOf('cycle', 'BE');
    for (let quantity = 1; quantity <= limits.testCasesQuantityMax; quantity++) {
      const cases = buildTestCases(formatOf('BE'), key, quantity, context);
      assert.equal(cases.length, quantity);
      assert.equal(cases[0]?.category, 'valid');
      assert.equal(
        new Set(cases.map((c) => c.category)).size,
        Math.min(quantity, 8),
        `quantity ${quantity}`,
      );
      assert.equal(new Set(cases.map((c) => c.case_id)).size, quantity);
    }
  });

  it('includes national_checksum only where a rule can be checked', () => {
    const categoriesOf = (code: string, ctx: NationalContext) =>
      new Set(
        buildTestCases(
          formatOf(code),
          requestKeyOf('national', code),
          limits.testCasesQuantityMax,
          ctx,
        ).map((c) => c.category),
      );
    assert.ok(nationalRuleOf('BE') !== undefined && nationalRuleOf('NL') === undefined);
    assert.ok(categoriesOf('BE', context).has('national_checksum'));
    assert.ok(categoriesOf('IT', context).has('national_checksum'));
    assert.ok(!categoriesOf('NL', context).has('national_checksum'));
    assert.ok(!categoriesOf('GB', context).has('national_checksum'));
    assert.equal(categoriesOf('NL', context).size, 7);
    // DE without a registry: no bank's check method is known, so no DE national case.
    assert.ok(!categoriesOf('DE', context).has('national_checksum'));
  });

  it("builds a DE national case once the context knows the example bank's method", () => {
    // Method 00 (modulus 10, weights 2,1,2,...) is the Bundesbank's most common method.
    const knowsExampleBank: NationalContext = {
      accountCheckMethod: (country, bankCode) =>
        country === 'DE' && bankCode === '37040044' ? '00' : undefined,
    };
    const cases = buildTestCases(
      formatOf('DE'),
      requestKeyOf('national', 'DE'),
      limits.testCasesQuantityMax,
      knowsExampleBank,
    );
    const national = cases.filter((c) => c.category === 'national_checksum');
    assert.ok(national.length >= 2);
    for (const testCase of national) {
      assert.equal(testCase.input.slice(4, 12), '37040044');
      const verdict = validateIban(testCase.input, knowsExampleBank);
      assert.equal(verdict.error, 'invalid_national_checksum', testCase.input);
    }
  });
});

describe('buildTestCases: determinism', () => {
  it('answers the same cases for the same key, other cases for another key', () => {
    const format = formatOf('IT');
    const first = buildTestCases(
      format,
      requestKeyOf('same', 'IT'),
      limits.testCasesQuantityMax,
      context,
    );
    assert.deepEqual(
      buildTestCases(format, requestKeyOf('same', 'IT'), limits.testCasesQuantityMax, context),
      first,
    );
    const other = buildTestCases(
      format,
      requestKeyOf('other', 'IT'),
      limits.testCasesQuantityMax,
      context,
    );
    assert.notDeepEqual(
      other.map((c) => c.input),
      first.map((c) => c.input),
    );
  });

  it('gives row i the same case whatever the quantity', () => {
    const key = requestKeyOf('prefix', 'ES');
    const full = buildTestCases(formatOf('ES'), key, limits.testCasesQuantityMax, context);
    assert.deepEqual(buildTestCases(formatOf('ES'), key, 10, context), full.slice(0, 10));
  });
});
