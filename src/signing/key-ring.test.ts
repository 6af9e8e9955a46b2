import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { keyRingFileName, loadManifestKeys, rotateManifestKey } from './key-ring.js';

const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-keyring-'));
  dirs.push(dir);
  return dir;
};
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('manifest key ring', () => {
  it('creates one key on first load (mode 0600) and keeps it on the next', () => {
    const dataDir = fresh();
    const first = loadManifestKeys({ dataDir, keyFile: null, enabled: true });
    const second = loadManifestKeys({ dataDir, keyFile: null, enabled: true });
    assert.equal(statSync(join(dataDir, keyRingFileName)).mode & 0o777, 0o600);
    assert.equal(first.signingKeyPem, second.signingKeyPem);
    assert.equal(first.published.length, 1);
    assert.equal(
      createPublicKey(first.signingKeyPem as string)
        .export({ format: 'pem', type: 'spki' })
        .toString(),
      first.published[0]?.public_key_pem,
    );
  });

  it('creates nothing when signing is off, and publishes what exists', () => {
    const dataDir = fresh();
    assert.deepEqual(loadManifestKeys({ dataDir, keyFile: null, enabled: false }), {
      signingKeyPem: null,
      published: [],
    });
    loadManifestKeys({ dataDir, keyFile: null, enabled: true });
    const off = loadManifestKeys({ dataDir, keyFile: null, enabled: false });
    assert.equal(off.signingKeyPem, null);
    assert.deepEqual(
      off.published.map((key) => key.status),
      ['retired'],
    );
  });

  it('rotates: the new key signs, the old one stays published without its private half', () => {
    const dataDir = fresh();
    const before = loadManifestKeys({ dataDir, keyFile: null, enabled: true });
    const rotated = rotateManifestKey(dataDir);
    const after = loadManifestKeys({ dataDir, keyFile: null, enabled: true });
    assert.notEqual(after.signingKeyPem, before.signingKeyPem);
    assert.deepEqual(
      after.published.map((key) => [key.key_id, key.status]),
      [
        [before.published[0]?.key_id, 'retired'],
        [rotated.keyId, 'active'],
      ],
    );
    assert.equal(
      readFileSync(join(dataDir, keyRingFileName), 'utf8').split('PRIVATE KEY-----').length - 1,
      2,
      'one private key (BEGIN and END)',
    );
  });
});
