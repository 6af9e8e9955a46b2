import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkGermanAccount, germanMethods } from './index.js';

/** Every code the Bundesbank scheme can hold: 00..99 and A0..E4. */
const allCodes = [
  ...Array.from({ length: 100 }, (_, index) => String(index).padStart(2, '0')),
  ...['A', 'B', 'C', 'D', 'E'].flatMap((letter) =>
    Array.from({ length: 10 }, (_, digit) => `${letter}${digit}`),
  ),
].filter((code) => code <= 'E4');

describe('German method table', () => {
  it('implements every described method; only the unassigned code 12 is missing', () => {
    assert.equal(allCodes.length, 145);
    assert.deepEqual(
      allCodes.filter((code) => !germanMethods.includes(code)),
      ['12'],
    );
    assert.equal(germanMethods.length, 144);
  });

  it('answers not_checked for codes it does not know', () => {
    assert.equal(checkGermanAccount('12', '00000000', '0000000000'), 'not_checked');
    assert.equal(checkGermanAccount('E5', '00000000', '0000000000'), 'not_checked');
    assert.equal(checkGermanAccount('', '00000000', '0000000000'), 'not_checked');
  });

  it('rejects accounts that are not 1-10 digits and pads shorter ones', () => {
    assert.equal(checkGermanAccount('00', '00000000', '12345678901'), 'failed');
    assert.equal(checkGermanAccount('00', '00000000', '12a4'), 'failed');
    assert.equal(checkGermanAccount('00', '00000000', ''), 'failed');
    assert.equal(
      checkGermanAccount('00', '00000000', '9290701'),
      checkGermanAccount('00', '00000000', '0009290701'),
    );
  });

  it('method 09 accepts every account', () => {
    for (const account of ['0000000000', '1234567890', '9999999999']) {
      assert.equal(checkGermanAccount('09', '00000000', account), 'passed');
    }
  });

  it('ESER methods need an 8-digit bank code for 8- and 9-digit accounts', () => {
    for (const method of ['52', '53', 'B6'])
      assert.equal(checkGermanAccount(method, '1305', '0043001500'), 'not_checked');
    // 10-digit accounts starting with 9 use method 20 and do not need the bank code.
    assert.equal(
      checkGermanAccount('52', '', '9876543210'),
      checkGermanAccount('20', '', '9876543210'),
    );
  });

  // The cost of one check is measured in bench/domain-checks.bench.ts, never asserted here.
  it('every method both passes and fails some of 1,000 spread accounts (none is constant, except 09)', () => {
    const accounts = Array.from({ length: 1000 }, (_, index) =>
      String(index * 7_919_231)
        .padStart(10, '0')
        .slice(-10),
    );
    const constant = germanMethods.filter((method) => {
      const verdicts = new Set(
        accounts.map((account) => checkGermanAccount(method, '13051172', account)),
      );
      return !(verdicts.has('passed') && verdicts.has('failed'));
    });
    assert.deepEqual(constant, ['09']);
  });
});
