// The request key, the US routing quote hash and the idempotency fingerprints hash RFC 8785 (JCS) text made
// by json-canonicalize. These are the shapes they hash (JSON request values: objects, arrays, strings,
// finite numbers, booleans, null, and members left undefined by optional fields), each with its JCS text
// written out by hand from RFC 8785, so a library that wrote them otherwise would fail here, not in a golden.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalize } from 'json-canonicalize';
import { requestKeyFor } from './request-key.js';

test('RFC 8785 §3.2.2 example: numbers, string escapes and literals', () => {
  const input = JSON.parse(
    '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
      '"string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
      '"literals": [null, true, false]}',
  ) as unknown;
  assert.equal(
    canonicalize(input),
    '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
      '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
  );
});

test('RFC 8785 §3.2.3 example: members sorted by UTF-16 code units, not by code point', () => {
  const input = {
    '\u20ac': 'Euro Sign',
    '\r': 'Carriage Return',
    '\ufb33': 'Hebrew Letter Dalet With Dagesh',
    '1': 'One',
    '\ud83d\ude00': 'Emoji: Grinning Face',
    '\u0080': 'Control',
    '\u00f6': 'Latin Small Letter O With Diaeresis',
  };
  const keys = Object.keys(JSON.parse(canonicalize(input)) as object);
  // JSON.parse puts the integer-like "1" first again; the text order is what RFC 8785 fixes.
  const order = canonicalize(input)
    .slice(1, -1)
    .split(/,(?=")/)
    .map((member) => JSON.parse(member.slice(0, member.indexOf('":') + 1)) as string);
  assert.deepEqual(order, ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33']);
  assert.equal(keys.length, 7);
});

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
