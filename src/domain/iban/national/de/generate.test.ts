import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestKeyOf, rowRng } from '../../../rng.js';
import { checkGermanAccount, generateGermanAccount, germanMethods } from './index.js';

/** Accounts generated per method and bank code. */
const accountsPerCase = 1000;
/** Synthetic bank codes (digit patterns, not claimed to belong to any institution). */
const syntheticBankCodes = ['12345678', '98765432'] as const;

function generateMany(method: string, bankCode: string, count: number): string[] {
  const key = requestKeyOf('de-account-generation-test', `${method}/${bankCode}`);
  return Array.from({ length: count }, (_, row) => {
    const account = generateGermanAccount(method, bankCode, rowRng(key, row));
    assert.ok(account !== null, `method ${method} generated nothing`);
    return account;
  });
}

describe('generateGermanAccount', () => {
  for (const method of germanMethods) {
    it(`method ${method}: ${accountsPerCase} seeded accounts per bank code all pass`, () => {
      for (const bankCode of syntheticBankCodes) {
        const accounts = generateMany(method, bankCode, accountsPerCase);
        for (const account of accounts) {
          assert.match(account, /^\d{10}$/);
          assert.equal(
            checkGermanAccount(method, bankCode, account),
            'passed',
            `${method} ${bankCode} ${account}`,
          );
        }
        assert.ok(new Set(accounts).size > accountsPerCase / 2, `method ${method} repeats itself`);
      }
    });
  }

  it('is deterministic for a seed', () => {
    assert.deepEqual(generateMany('A4', '12345678', 50), generateMany('A4', '12345678', 50));
  });

  it('returns null for methods it does not implement', () => {
    const rng = rowRng(requestKeyOf('de-account-generation-test', 'null'), 0);
    assert.equal(generateGermanAccount('12', '12345678', rng), null);
    assert.equal(generateGermanAccount('ZZ', '12345678', rng), null);
  });

  it('returns null for the ESER methods when the bank code is unusable', () => {
    const rng = rowRng(requestKeyOf('de-account-generation-test', 'eser'), 0);
    for (const method of ['52', '53', 'B6', 'C0'])
      assert.equal(generateGermanAccount(method, '1234', rng), null);
  });

  it('method 54 accounts start with 49 and method 52 draws include 8-digit ESER accounts', () => {
    assert.ok(generateMany('54', '12345678', 100).every((account) => account.startsWith('49')));
    assert.ok(generateMany('52', '12345678', 100).some((account) => account.startsWith('00')));
  });
});
