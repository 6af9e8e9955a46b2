import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import {
  encodeCrockford,
  generateRawKey,
  hashKey,
  hashesEqual,
  isWellFormedKey,
  keyIdOf,
} from './keys.js';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/** Independent reference: through a bit string, padding the tail with zero bits. */
function referenceCrockford(bytes: Uint8Array): string {
  const bits = [...bytes].map((b) => b.toString(2).padStart(8, '0')).join('');
  const padded = bits.padEnd(Math.ceil(bits.length / 5) * 5, '0');
  return (padded.match(/.{5}/g) ?? []).map((chunk) => CROCKFORD[parseInt(chunk, 2)]).join('');
}

test('Crockford encoding: known vectors and agreement with a reference', () => {
  assert.equal(encodeCrockford(Buffer.from('f')), 'cr'); // 01100 110(00) -> 12, 24
  assert.equal(encodeCrockford(new Uint8Array(20)), '0'.repeat(32));
  assert.equal(encodeCrockford(new Uint8Array(20).fill(0xff)), 'z'.repeat(32));
  for (let n = 0; n < 200; n++) {
    const bytes = Uint8Array.from({ length: n % 25 }, (_, i) => (n * 37 + i * 101) & 0xff);
    assert.equal(encodeCrockford(bytes), referenceCrockford(bytes));
  }
});

test('generated keys are iq_ + 32 Crockford characters and distinct', () => {
  const keys = new Set<string>();
  for (let i = 0; i < 500; i++) {
    const key = generateRawKey();
    assert.match(key, /^iq_[0-9a-hjkmnp-tv-z]{32}$/);
    assert.ok(isWellFormedKey(key));
    keys.add(key);
  }
  assert.equal(keys.size, 500);
});

test('malformed keys are rejected before hashing', () => {
  const good = generateRawKey();
  for (const bad of [
    '',
    good.toUpperCase(),
    good.slice(0, -1),
    `${good}0`,
    `xx_${good.slice(3)}`,
    `iq_${'i'.repeat(32)}`,
    `iq_${'l'.repeat(32)}`,
    `iq_${'o'.repeat(32)}`,
    `iq_${'u'.repeat(32)}`,
    ` ${good}`,
  ]) {
    assert.ok(!isWellFormedKey(bad), JSON.stringify(bad));
  }
});

test('hash is SHA-256 hex and the id is key_ + its first 12 hex digits', () => {
  const key = generateRawKey();
  const expected = createHash('sha256').update(key).digest('hex');
  assert.equal(hashKey(key), expected);
  assert.equal(keyIdOf(expected), `key_${expected.slice(0, 12)}`);
  assert.ok(hashesEqual(expected, hashKey(key)));
  assert.ok(!hashesEqual(expected, hashKey(generateRawKey())));
  assert.ok(!hashesEqual(expected, expected.slice(0, 62)));
});
