/**
 * API key format and hashing. A raw key is `iq_` + 32 lower-case Crockford base32 characters
 * (20 random bytes = 160 bits = exactly 32 five-bit characters). The server keeps only its SHA-256.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { assert } from '../assert.js';

export const KEY_PREFIX = 'iq_';
/** 160 bits of entropy: guessing is hopeless, so a fast hash is enough (see hashKey). */
const KEY_RANDOM_BYTES = 20;
const BITS_PER_CHAR = 5;
const KEY_BODY_LENGTH = (KEY_RANDOM_BYTES * 8) / BITS_PER_CHAR;
/** 12 hex = 48 bits of the hash: unique among any realistic number of keys, short enough to type. */
const KEY_ID_HEX_LENGTH = 12;

/** Crockford's alphabet, lower-case: no i, l, o, u, so a key read aloud or retyped is unambiguous. */
const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[${CROCKFORD}]{${KEY_BODY_LENGTH}}$`);

export function encodeCrockford(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= BITS_PER_CHAR) {
      bits -= BITS_PER_CHAR;
      out += CROCKFORD[(buffer >>> bits) & 0x1f];
    }
    buffer &= (1 << bits) - 1; // keep only the bits not yet emitted, so the shift never overflows
  }
  if (bits > 0) out += CROCKFORD[(buffer << (BITS_PER_CHAR - bits)) & 0x1f];
  return out;
}

/** A fresh raw key. Not domain code: real randomness is the point here. */
export function generateRawKey(): string {
  const key = KEY_PREFIX + encodeCrockford(randomBytes(KEY_RANDOM_BYTES));
  assert(KEY_PATTERN.test(key), 'generated key does not match its own format');
  return key;
}

/**
 * Gate for untrusted input, applied BEFORE hashing so junk never costs a hash or a lookup.
 * Exact form only: keys are issued lower-case, and a key is a secret, not a name to be normalised.
 */
export function isWellFormedKey(text: string): boolean {
  return KEY_PATTERN.test(text);
}

/**
 * SHA-256 hex. Slow password hashes (scrypt, argon2) defend low-entropy secrets against offline
 * guessing; a 160-bit random key cannot be guessed, so a single fast hash loses nothing.
 */
export function hashKey(rawKey: string): string {
  return createHash('sha256').update(rawKey, 'utf8').digest('hex');
}

/** Public, loggable handle of a key: derived from the hash, so a lookup needs no second index. */
export function keyIdOf(hash: string): string {
  return `key_${hash.slice(0, KEY_ID_HEX_LENGTH)}`;
}

/** Constant-time comparison of two hex hashes of equal length. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
