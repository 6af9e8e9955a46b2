import assert from 'node:assert/strict';
import { test } from 'node:test';
import { takeRandomBytes } from './random-pool.js';
import { newRequestId } from './transport/http/request-id.js';
import { requestKeyFor } from './service/request-key.js';

test('pooled random bytes: consecutive draws never overlap, across refills', () => {
  const seen = new Set<string>();
  for (let draw = 0; draw < 1_000; draw++) {
    const hex = Buffer.from(takeRandomBytes(16)).toString('hex');
    assert.ok(!seen.has(hex), `draw ${draw} repeated ${hex}`);
    seen.add(hex);
  }
  assert.throws(() => takeRandomBytes(0));
  assert.throws(() => takeRandomBytes(4097));
});

test('request ids are UUIDv7 (version 7, RFC 9562 variant), time-ordered and distinct', () => {
  const ids = Array.from({ length: 600 }, (_, index) => newRequestId(1_795_000_000_000 + index));
  for (const id of ids)
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(new Set(ids).size, ids.length);
  assert.deepEqual([...ids].sort(), ids, 'ids sort by their millisecond');
  assert.equal(
    ids[0]?.slice(0, 13).replace('-', ''),
    (1_795_000_000_000).toString(16).padStart(12, '0'),
  );
});

test('unseeded request keys differ on every call; seeded ones are a function of op, seed and parameters', () => {
  const unseeded = Array.from({ length: 500 }, () =>
    requestKeyFor('iban.generate', undefined, { country: 'DE' }).join(','),
  );
  assert.equal(new Set(unseeded).size, unseeded.length);
  assert.deepEqual(
    requestKeyFor('iban.generate', 's', { b: 1, a: 2 }),
    requestKeyFor('iban.generate', 's', { a: 2, b: 1 }),
  );
  assert.notDeepEqual(
    requestKeyFor('iban.generate', 's', { a: 2 }),
    requestKeyFor('iban.generate', 't', { a: 2 }),
  );
});
