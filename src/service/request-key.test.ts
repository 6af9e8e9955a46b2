// The request key, the US routing quote hash and the idempotency fingerprints hash RFC 8785 (JCS) text made
// by json-canonicalize (src/domain/manifest/canonical.test.ts holds the library to the RFC's own examples).
// These are the shapes they hash (JSON request values: objects, arrays, strings, finite numbers, booleans,
// null, and members left undefined by optional fields), each with its JCS text written out by hand from
// RFC 8785, so a library that wrote them otherwise would fail here, not in a golden.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalize } from 'json-canonicalize';
import { requestKeyFor } from './request-key.js';

test('request shapes: nested members sorted, undefined members left out, arrays kept in order', () => {
  assert.equal(
    canonicalize({
      seed: 'abc',
      routing_numbers: ['021000021', '011000015'],
      generate_tests: true,
      generation: { target_id: 'chase', count: 3 },
    }),
    '{"generate_tests":true,"generation":{"count":3,"target_id":"chase"},' +
      '"routing_numbers":["021000021","011000015"],"seed":"abc"}',
  );
  assert.equal(
    canonicalize({ mode: 'valid', target: null, banks: undefined }),
    '{"mode":"valid","target":null}',
  );
  assert.equal(canonicalize({}), '{}');
  assert.equal(canonicalize({ quantity: 100, country: 'DE' }), '{"country":"DE","quantity":100}');
});

test('a seeded request key does not depend on the order of the row parameters', () => {
  const one = requestKeyFor('iban.generate', 's1', { country: 'DE', banks: true });
  const other = requestKeyFor('iban.generate', 's1', { banks: true, country: 'DE' });
  assert.deepEqual(one, other);
  assert.notDeepEqual(one, requestKeyFor('iban.generate', 's1', { country: 'FR', banks: true }));
});
