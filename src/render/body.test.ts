import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { outputJson } from './body.js';

test('outputJson equals JSON.stringify for objects with row arrays, arrays and scalars', () => {
  const row = fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined)), { maxKeys: 5 });
  const output = fc.oneof(
    fc.array(row, { maxLength: 5 }),
    fc.record({ success: fc.boolean(), count: fc.integer(), seed: fc.option(fc.string()), rows: fc.array(row, { maxLength: 5 }), note: fc.constant(undefined) }),
    fc.string(),
    fc.constant(null),
  );
  fc.assert(fc.property(output, (value) => assert.equal(outputJson(value), JSON.stringify(value))), { numRuns: 1_000 });
});
