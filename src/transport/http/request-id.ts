import { limits } from '../../limits.js';
import { takeRandomBytes } from '../../random-pool.js';

/** Clarifications §7: a client value of 1 to 128 printable ASCII characters is echoed. */
export function isAcceptableRequestId(value: string): boolean {
  if (value.length === 0 || value.length > limits.requestIdCharsMax) return false;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

const hex = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then random bits; ids sort by time in logs. Written here
 * rather than pulled from a package because it runs on every response: random bytes come from the shared
 * pool (src/random-pool.ts), which keeps it a few hundred nanoseconds. The pooled view is written and read
 * here at once.
 */
export function newRequestId(nowMs: number = Date.now()): string {
  const bytes = takeRandomBytes(16);
  let time = nowMs;
  for (let index = 5; index >= 0; index--) {
    bytes[index] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes[6] = 0x70 | ((bytes[6] as number) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] as number) & 0x3f);
  let out = '';
  for (let index = 0; index < 16; index++) {
    if (index === 4 || index === 6 || index === 8 || index === 10) out += '-';
    out += hex[bytes[index] as number];
  }
  return out;
}

/**
 * Said on an answer whose client-sent X-Request-ID was replaced (REST header, gRPC initial metadata), so a
 * client correlating by its own id learns at once that this answer carries another one.
 */
export const requestIdReplacedHeader = 'x-request-id-replaced';
export const requestIdReplacedReason = 'the sent value is not 1-128 printable ASCII characters';

/** The id an answer carries, and whether a value the client sent was replaced (an empty header is no value). */
export function requestIdFrom(header: string): { readonly id: string; readonly replaced: boolean } {
  if (isAcceptableRequestId(header)) return { id: header, replaced: false };
  return { id: newRequestId(), replaced: header !== '' };
}
