import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countryFormats, validateIban } from '../../src/domain/iban/index.js';
import { germanMethodTable } from '../../src/domain/iban/national/de/method-table.js';
import { noRegistryContext } from '../../src/domain/iban/national/types.js';
import { chunks, countryClasses, mixedIbans, syntheticGermanMethodContext } from './iban-list.js';

test('mixedIbans is deterministic, valid, and covers every registry country', () => {
  const count = countryFormats.length * 3;
  const first = mixedIbans(count, noRegistryContext);
  assert.deepEqual(mixedIbans(count, noRegistryContext), first);
  assert.equal(new Set(first.map((iban) => iban.slice(0, 2))).size, countryFormats.length);
  for (const iban of first) assert.equal(validateIban(iban, noRegistryContext).valid, true, iban);
});

test('chunks keeps full chunks in order and drops the partial tail', () => {
  assert.deepEqual(chunks([1, 2, 3, 4, 5], 2), [
    [1, 2],
    [3, 4],
  ]);
  assert.deepEqual(chunks([1], 2), []);
});

test('the synthetic German context answers a known method for DE only, stable per bank code', () => {
  const context = syntheticGermanMethodContext();
  const method = context.accountCheckMethod('DE', '37040044');
  assert.ok(method !== undefined && germanMethodTable.has(method));
  assert.equal(context.accountCheckMethod('DE', '37040044'), method);
  assert.equal(context.accountCheckMethod('AT', '12345'), undefined);
});

test('IBANs generated under the synthetic German context pass its national check', () => {
  const context = syntheticGermanMethodContext();
  const germany = countryFormats.filter((format) => format.code === 'DE');
  for (const iban of mixedIbans(200, context, germany))
    assert.equal(validateIban(iban, context).nationalCheck, 'passed', iban);
});

test('country classes split the registry without overlap (DE appears in its own classes only)', () => {
  const classes = countryClasses(noRegistryContext);
  const [plain, ruled] = classes;
  const codes = [...(plain?.formats ?? []), ...(ruled?.formats ?? [])].map((format) => format.code);
  assert.equal(new Set(codes).size, codes.length);
  assert.equal(codes.length, countryFormats.length - 1);
  assert.ok(!codes.includes('DE'));
});
