import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type TestNumber,
  bundesbankTestNumbers,
  syntheticBankCode,
} from '../../../../../test/fixtures/national/bundesbank-test-numbers.js';
import { checkGermanAccount, germanMethods } from './index.js';

const accountOf = (entry: TestNumber): string =>
  typeof entry === 'string' ? entry : entry.account;
const bankCodeOf = (entry: TestNumber): string =>
  typeof entry === 'string' ? syntheticBankCode : entry.bankCode;

/** True when changing one digit of the published account makes the method reject it. */
function someMutationFails(method: string, entry: TestNumber): boolean {
  const account = accountOf(entry).padStart(10, '0');
  for (let index = 0; index < account.length; index++) {
    for (let digit = 0; digit <= 9; digit++) {
      const mutated = `${account.slice(0, index)}${digit}${account.slice(index + 1)}`;
      if (checkGermanAccount(method, bankCodeOf(entry), mutated) === 'failed') return true;
    }
  }
  return false;
}

describe('Bundesbank published test account numbers', () => {
  it('every method with published numbers is implemented', () => {
    const missing = Object.keys(bundesbankTestNumbers).filter(
      (method) => !germanMethods.includes(method),
    );
    assert.deepEqual(missing, []);
  });

  for (const [method, numbers] of Object.entries(bundesbankTestNumbers)) {
    it(`method ${method}: ${numbers.valid.length} valid pass, ${numbers.invalid.length} invalid fail`, () => {
      for (const entry of numbers.valid) {
        assert.equal(
          checkGermanAccount(method, bankCodeOf(entry), accountOf(entry)),
          'passed',
          `${method} ${accountOf(entry)}`,
        );
      }
      for (const entry of numbers.invalid) {
        assert.equal(
          checkGermanAccount(method, bankCodeOf(entry), accountOf(entry)),
          'failed',
          `${method} ${accountOf(entry)}`,
        );
      }
    });
  }

  it('every method rejects some single-digit change of its published valid numbers (no vacuous check)', () => {
    const vacuous = Object.entries(bundesbankTestNumbers)
      .filter(
        ([method, numbers]) => !numbers.valid.some((entry) => someMutationFails(method, entry)),
      )
      .map(([method]) => method);
    assert.deepEqual(vacuous, []);
  });
});
