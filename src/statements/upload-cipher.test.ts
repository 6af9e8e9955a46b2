import assert from 'node:assert/strict';
import { createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { decryptUpload, encryptUpload, loadUploadKey } from './upload-cipher.js';

test('stored layout is nonce(12) | tag(16) | AES-256-GCM ciphertext with the review id as AAD', () => {
  const key = randomBytes(32);
  const plain = Buffer.from('%PDF-1.7 synthetic statement bytes');
  const stored = encryptUpload(key, 'review-1', plain);
  assert.ok(!stored.includes(plain));
  // Decrypted here with node:crypto directly, following the documented layout.
  const decipher = createDecipheriv('aes-256-gcm', key, stored.subarray(0, 12));
  decipher.setAAD(Buffer.from('review-1'));
  decipher.setAuthTag(stored.subarray(12, 28));
  assert.deepEqual(Buffer.concat([decipher.update(stored.subarray(28)), decipher.final()]), plain);
  assert.deepEqual(decryptUpload(key, 'review-1', stored), plain);
});

test('a changed byte, another review id or another key fails to decrypt', () => {
  const key = randomBytes(32);
  const stored = encryptUpload(key, 'review-1', Buffer.from('statement'));
  const tampered = Buffer.from(stored);
  tampered[tampered.length - 1] = (tampered[tampered.length - 1] as number) ^ 1;
  assert.throws(() => decryptUpload(key, 'review-1', tampered));
  assert.throws(() => decryptUpload(key, 'review-2', stored));
  assert.throws(() => decryptUpload(randomBytes(32), 'review-1', stored));
});

test('the key file is created once with mode 0600; a configured key wins', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-key-'));
  try {
    const file = join(dir, 'statements', 'upload.key');
    const first = loadUploadKey(null, file);
    assert.equal(first.source, 'data_directory');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(loadUploadKey(null, file).key, readFileSync(file));
    const configured = loadUploadKey('ab'.repeat(32), file);
    assert.equal(configured.source, 'configured');
    assert.deepEqual(configured.key, Buffer.alloc(32, 0xab));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
