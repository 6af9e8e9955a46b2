/**
 * Cryptographic random bytes from a pooled buffer: one randomFillSync per 4 KiB instead of one call per
 * use. Every response draws bytes for its request id and every unseeded request for its request key;
 * randomBytes(16) per request was 6.8 us of about 260 in the REST profile (bench/RESULTS.md §5).
 * The returned view is only valid until the next call refills the pool: read it at once, never keep it.
 */
import { randomFillSync } from 'node:crypto';
import { assert } from './assert.js';

const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let offset = POOL_BYTES;

export function takeRandomBytes(count: number): Uint8Array {
  assert(
    Number.isInteger(count) && count > 0 && count <= POOL_BYTES,
    `takeRandomBytes(${count}): 1 to ${POOL_BYTES} bytes`,
  );
  if (offset + count > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = pool.subarray(offset, offset + count);
  offset += count;
  return bytes;
}
