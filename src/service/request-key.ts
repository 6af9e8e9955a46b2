import { canonicalize } from 'json-canonicalize';
import { takeRandomBytes } from '../random-pool.js';
import { requestKeyFromBytes, requestKeyOf, type RequestKey } from '../domain/rng.js';

/**
 * Seeded requests get a key from (operation, seed, the parameters that shape a row); unseeded ones a
 * fresh random key, so they differ on every call (clarifications §6). The parameters are written as RFC 8785
 * (JCS) text, so their key order does not matter.
 */
export function requestKeyFor(
  opName: string,
  seed: string | undefined,
  rowParameters: unknown,
): RequestKey {
  if (seed === undefined) return requestKeyFromBytes(takeRandomBytes(16));
  return requestKeyOf(seed, `${opName}|${canonicalize(rowParameters)}`);
}
