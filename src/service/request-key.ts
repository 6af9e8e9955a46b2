import { takeRandomBytes } from '../random-pool.js';
import { requestKeyFromBytes, requestKeyOf, type RequestKey } from '../domain/rng.js';

/** JSON with object keys sorted: the same parameters always give the same text, whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Seeded requests get a key from (operation, seed, the parameters that shape a row); unseeded ones a
 * fresh random key, so they differ on every call (clarifications §6).
 */
export function requestKeyFor(
  opName: string,
  seed: string | undefined,
  rowParameters: unknown,
): RequestKey {
  if (seed === undefined) return requestKeyFromBytes(takeRandomBytes(16));
  return requestKeyOf(seed, `${opName}|${canonicalJson(rowParameters)}`);
}
