import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** AES-256-GCM: a 32-byte key, a fresh 12-byte nonce per file, a 16-byte tag that detects any change at rest. */
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** Layout of a stored upload: nonce | tag | ciphertext. The review id is the additional authenticated data,
 *  so a file renamed to another review's name fails to decrypt. */
export function encryptUpload(key: Buffer, reviewId: string, plain: Uint8Array): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(reviewId));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]);
}

/** Throws when the file was altered, truncated or encrypted under another key or review id. */
export function decryptUpload(key: Buffer, reviewId: string, stored: Uint8Array): Buffer {
  const data = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, NONCE_BYTES));
  decipher.setAAD(Buffer.from(reviewId));
  decipher.setAuthTag(data.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(data.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]);
}

/**
 * The upload key: IBANQA_STATEMENT_KEY (64 hex characters) when configured, else a key file in the data
 * directory, created on first use with mode 0600. Losing the key makes stored uploads unreadable (their
 * reviews fail as upload_lost); finished reports do not need it.
 */
export function loadUploadKey(
  configuredHex: string | null,
  keyFile: string,
): { key: Buffer; source: 'configured' | 'data_directory' } {
  if (configuredHex !== null)
    return { key: Buffer.from(configuredHex, 'hex'), source: 'configured' };
  if (!existsSync(keyFile)) {
    mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 });
    writeFileSync(keyFile, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(keyFile, 0o600);
  const key = readFileSync(keyFile);
  if (key.length !== KEY_BYTES) throw new Error(`${keyFile} must hold exactly ${KEY_BYTES} bytes`);
  return { key, source: 'data_directory' };
}

export const uploadKeyBytes = KEY_BYTES;

/**
 * Names a key without revealing it: HMAC-SHA256 of a fixed text under the key, hex. Nodes sharing a database compare
 * it to find a node whose upload key differs.
 */
export function uploadKeyFingerprint(key: Buffer): string {
  return createHmac('sha256', key).update('ibanqa statement upload key').digest('hex');
}
