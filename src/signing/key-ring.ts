/**
 * The deployment's manifest signing keys, kept in one small JSON file in the data directory (mode 0600).
 * The first start creates a key so manifests are signed out of the box; a rotation adds a new active key and
 * keeps every older public key (private keys of retired generated keys are dropped: they must never sign again),
 * so manifests signed before a rotation keep verifying against /fixture-manifest/spec.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  generateSigningKey,
  keyIdOf,
  publishedKeyOf,
  rawPublicKeyOf,
  type PublishedKey,
} from '../domain/manifest/keys.js';
import type { ManifestKeys } from '../domain/manifest/signing.js';

export const keyRingFileName = 'manifest-signing-keys.json';
const keyRingFormat = 'ibanqa-manifest-keyring/1';

interface RingKey {
  readonly key_id: string;
  readonly public_key_pem: string;
  /** Only on the key the ring itself signs with. */
  readonly private_key_pem?: string;
  /** 'generated': made by this service; 'operator': the public half of an IBANQA_SIGNING_KEY_FILE key once used. */
  readonly origin: 'generated' | 'operator';
}

interface KeyRing {
  readonly format: typeof keyRingFormat;
  /** Keys in the order they were added; the last generated one with a private key signs. */
  readonly keys: readonly RingKey[];
}

export interface SigningSettings {
  readonly dataDir: string;
  /** IBANQA_SIGNING_KEY_FILE: an operator's PKCS#8 PEM Ed25519 private key; it signs instead of the ring's key. */
  readonly keyFile: string | null;
  /** IBANQA_MANIFEST_SIGNING=off: manifests are hashed, not signed; known public keys stay published. */
  readonly enabled: boolean;
}

function readRing(path: string): KeyRing | undefined {
  if (!existsSync(path)) return undefined;
  const ring = JSON.parse(readFileSync(path, 'utf8')) as KeyRing;
  if (ring.format !== keyRingFormat || !Array.isArray(ring.keys))
    throw new Error(`${path} is not an ${keyRingFormat} key ring`);
  return ring;
}

/** Written to a temporary file with mode 0600 and renamed: a crash never leaves half a key ring. */
function writeRing(path: string, ring: KeyRing): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(ring, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

function generatedKey(): RingKey {
  const { privateKeyPem, keyId } = generateSigningKey();
  const public_key_pem = createPublicKey(privateKeyPem)
    .export({ format: 'pem', type: 'spki' })
    .toString();
  return { key_id: keyId, public_key_pem, private_key_pem: privateKeyPem, origin: 'generated' };
}

function ringSigner(ring: KeyRing): RingKey | undefined {
  return [...ring.keys].reverse().find((key) => key.private_key_pem !== undefined);
}

function published(ring: KeyRing, activeKeyId: string | null): PublishedKey[] {
  return ring.keys.map((key) =>
    publishedKeyOf(
      createPublicKey(key.public_key_pem),
      key.key_id === activeKeyId ? 'active' : 'retired',
    ),
  );
}

/** Reads (and on first start creates) the key ring; an operator key file is recorded in it so it stays listed. */
export function loadManifestKeys(settings: SigningSettings): ManifestKeys {
  const path = join(settings.dataDir, keyRingFileName);
  let ring = readRing(path);
  if (settings.keyFile !== null) {
    const pem = readFileSync(settings.keyFile, 'utf8');
    const privateKey = createPrivateKey(pem);
    if (privateKey.asymmetricKeyType !== 'ed25519')
      throw new Error(`${settings.keyFile} is not an Ed25519 private key`);
    const publicKey = createPublicKey(privateKey);
    const keyId = keyIdOf(rawPublicKeyOf(publicKey));
    if (ring === undefined || !ring.keys.some((key) => key.key_id === keyId)) {
      ring = {
        format: keyRingFormat,
        keys: [
          ...(ring?.keys ?? []),
          {
            key_id: keyId,
            public_key_pem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
            origin: 'operator',
          },
        ],
      };
      writeRing(path, ring);
    }
    return settings.enabled
      ? { signingKeyPem: pem, published: published(ring, keyId) }
      : { signingKeyPem: null, published: published(ring, null) };
  }
  if (!settings.enabled)
    return { signingKeyPem: null, published: ring === undefined ? [] : published(ring, null) };
  if (ring === undefined || ringSigner(ring) === undefined) {
    ring = { format: keyRingFormat, keys: [...(ring?.keys ?? []), generatedKey()] };
    writeRing(path, ring);
  }
  const signer = ringSigner(ring) as RingKey;
  return {
    signingKeyPem: signer.private_key_pem ?? null,
    published: published(ring, signer.key_id),
  };
}

/** `ibanqa manifest keygen`: a new active key; the previous generated key keeps only its public half. */
export function rotateManifestKey(dataDir: string): { keyId: string; retired: readonly string[] } {
  const path = join(dataDir, keyRingFileName);
  const ring = readRing(path);
  const retired = (ring?.keys ?? [])
    .filter((key) => key.private_key_pem !== undefined)
    .map((key) => key.key_id);
  const next = generatedKey();
  const kept = (ring?.keys ?? []).map(({ private_key_pem: _dropped, ...key }) => key);
  writeRing(path, { format: keyRingFormat, keys: [...kept, next] });
  return { keyId: next.key_id, retired };
}
