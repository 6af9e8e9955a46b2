import { createHash } from 'node:crypto';
import { canonicalize } from 'json-canonicalize';

/**
 * RFC 8785 (JCS) bytes of a JSON value, from a library rather than by hand (number and string forms are easy to get
 * wrong). json-canonicalize, not `canonicalize`: 5.x needs Node 22, and 4.0.0 (ESM-only exports) made tsx fail to
 * load the pool's worker module ("Unknown file extension .ts") whenever the op table imported it.
 */
export function jcsBytes(value: unknown): Buffer {
  return Buffer.from(canonicalize(value), 'utf8');
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** base64url without padding (RFC 4648 §5), as the signature and public keys travel. */
export function base64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

/** Strict decoding: only the base64url alphabet, no padding, and the bytes must re-encode to the same text. */
export function fromBase64url(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

/** The manifest object without the named members (the hash and signature inputs). */
export function without(
  value: Readonly<Record<string, unknown>>,
  ...names: readonly string[]
): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...value };
  for (const name of names) delete copy[name];
  return copy;
}
