import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { rowsJson } from './rows-json.js';

test('rowsJson is byte-identical to JSON.stringify on arbitrary flat rows with shared nested values', () => {
  const shared = Object.freeze({ lei: null, payment_schemes: [], domestic_registry: { bank_code: '1', account_checksum_method: null } });
  const value = fc.oneof(fc.string({ unit: 'binary' }), fc.boolean(), fc.integer(), fc.double(), fc.constant(null), fc.constant(undefined), fc.constant(shared), fc.constant(['a', 'b']));
  fc.assert(
    fc.property(fc.array(fc.dictionary(fc.string({ unit: 'binary', maxLength: 8 }), value, { maxKeys: 8 }), { maxLength: 20 }), (rows) => {
      assert.equal(rowsJson(rows), JSON.stringify(rows));
    }),
    { numRuns: 2_000 },
  );
});

test('per-request arrays of shared frozen values (lookup matches) serialize like JSON.stringify, holes and undefined as null', () => {
  const view = Object.freeze({ record_id: 1, address: Object.freeze({ city: 'Köln' }), codes: Object.freeze([Object.freeze({ scheme: 'de_blz', value: '1' })]) });
  const dated = { at: new Date(0) };
  const element = fc.oneof(fc.constant(view), fc.string({ unit: 'binary' }), fc.double(), fc.constant(undefined), fc.constant(null), fc.constant(dated), fc.constant(() => 1), fc.constant([view, [undefined]]));
  fc.assert(
    fc.property(fc.array(fc.record({ matches: fc.array(element, { maxLength: 6 }), n: fc.integer() }), { maxLength: 10 }), (rows) => {
      assert.equal(rowsJson(rows), JSON.stringify(rows));
    }),
    { numRuns: 2_000 },
  );
  // eslint-disable-next-line no-sparse-arrays -- a hole is the case under test: JSON.stringify writes it as null
  const sparse = [{ matches: [view, , view] }];
  assert.equal(rowsJson(sparse), JSON.stringify(sparse));
});

test('a first key never borrows the fragment of a later key (regression: {"":0,"\\u0000":false})', () => {
  const rows = [{ '': 0, '\u0000': false }];
  assert.equal(rowsJson(rows), JSON.stringify(rows));
});

test('escapes quotes, backslashes, control characters and lone surrogates like JSON.stringify', () => {
  const rows = [{ iban: 'DE"89\\\u0007\ud800x', ok: true }, { iban: 'ÄÖÜ', n: 1.5 }];
  assert.equal(rowsJson(rows), JSON.stringify(rows));
});
