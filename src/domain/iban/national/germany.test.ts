import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { checkGermanAccount, generateGermanAccount } from './de/index.js';
import { germanyRule } from './germany.js';
import type { NationalContext } from './types.js';
import { noRegistryContext } from './types.js';
import { requestKeyOf, rowRng } from '../../rng.js';
import { sharedPath, skipWithoutShared } from '../../../../test/helpers/shared.js';

const blzFile = sharedPath('bundesbank-blz/2025-09-08/bundesbank.txt');

/** A registry stub: one bank code → method, recording what it was asked. */
function contextWith(methods: Record<string, string>, asked: string[] = []): NationalContext {
  return {
    accountCheckMethod(countryCode, bankCode) {
      asked.push(`${countryCode}:${bankCode}`);
      return methods[bankCode];
    },
  };
}

/** Methods of main records (Merkmal 1) from the Bundesbank file: BLZ 1-8, Merkmal 9, method 151-152. */
function bundesbankMethods(): Record<string, string> {
  const methods: Record<string, string> = {};
  for (const line of readFileSync(blzFile, 'utf8').split(/\r?\n/)) {
    if (line.charAt(8) === '1') methods[line.slice(0, 8)] = line.slice(150, 152);
  }
  return methods;
}

const registryExample = '370400440532013000'; // BBAN of DE89370400440532013000 (SWIFT registry)

describe('DE bridge to the Bundesbank methods', () => {
  it('asks the registry for the method of the BBAN bank code, and answers not_checked when unknown', () => {
    const asked: string[] = [];
    assert.equal(germanyRule.check(registryExample, contextWith({}, asked)), 'not_checked');
    assert.deepEqual(asked, ['DE:37040044']);
    assert.equal(germanyRule.check(registryExample, noRegistryContext), 'not_checked');
  });
  it('hands method, bank code and 10-digit account to checkGermanAccount', () => {
    const context = contextWith({ '37040044': '13' });
    assert.equal(
      germanyRule.check(registryExample, context),
      checkGermanAccount('13', '37040044', '0532013000'),
    );
  });
  it('complete puts the generated account in place, or leaves the BBAN unchanged', () => {
    const key = requestKeyOf('de-bridge', '');
    const completed = germanyRule.complete(
      registryExample,
      rowRng(key, 0),
      contextWith({ '37040044': '13' }),
    );
    const generated = generateGermanAccount('13', '37040044', rowRng(key, 0));
    assert.equal(completed, generated === null ? registryExample : `37040044${generated}`);
    assert.equal(
      germanyRule.complete(registryExample, rowRng(key, 0), noRegistryContext),
      registryExample,
    );
  });
  it('never fails the registry example with its real Bundesbank method', skipWithoutShared, () => {
    const methods = bundesbankMethods();
    const method = methods['37040044'];
    assert.ok(
      method !== undefined && /^[0-9A-E][0-9]$/.test(method),
      `method of 37040044: ${method}`,
    );
    assert.notEqual(germanyRule.check(registryExample, contextWith(methods)), 'failed');
  });
});
