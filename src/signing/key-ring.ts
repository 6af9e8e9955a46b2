/**
 * The deployment's manifest signing keys: one small JSON key ring, kept in a file in the data directory (mode 0600)
 * or, for several nodes that must sign with the same keys, in the shared database (KeyRingStorage,
 * src/postgres/key-ring-store.ts).
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

export interface RingKey {
  readonly key_id: string;
  readonly public_key_pem: string;
  /** Only on the key the ring itself signs with. */
  readonly private_key_pem?: string;
  /** 'generated': made by this service; 'operator': the public half of an IBANQA_SIGNING_KEY_FILE key once used. */
  readonly origin: 'generated' | 'operator';
}

export interface KeyRing {
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

/** What a change of the ring gives back, and the ring to store when it changed it. */
export interface RingChange<T> {
  readonly result: T;
  readonly write?: KeyRing;
}

/**
 * Where the ring lives. `update` reads it, applies `change` and stores `write` if there is one, as one step
 * against every other writer of the same storage (several nodes starting at once create one key, not three).
 */
export interface KeyRingStorage {
  update<T>(change: (ring: KeyRing | undefined) => RingChange<T>): Promise<T>;
}

/** A stored ring checked for its format; `where` names the storage in the error. */
export function checkedRing(value: unknown, where: string): KeyRing {
  const ring = value as KeyRing;
  if (ring?.format !== keyRingFormat || !Array.isArray(ring.keys))
    throw new Error(`${where} is not an ${keyRingFormat} key ring`);
  return ring;
}

function readRing(path: string): KeyRing | undefined {
  if (!existsSync(path)) return undefined;
  return checkedRing(JSON.parse(readFileSync(path, 'utf8')), path);
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

/** The file of one node (the default); synchronous underneath, one process writes it at a time. */
export function fileKeyRing(dataDir: string): KeyRingStorage {
  return { update: async (change) => changeFile(join(dataDir, keyRingFileName), change) };
}

function changeFile<T>(path: string, change: (ring: KeyRing | undefined) => RingChange<T>): T {
  const { result, write } = change(readRing(path));
  if (write !== undefined) writeRing(path, write);
  return result;
}

/** Reads (and on first start creates) the key ring in the data directory. */
export function loadManifestKeys(settings: SigningSettings): ManifestKeys {
  return changeFile(join(settings.dataDir, keyRingFileName), signingKeysOf(settings));
}

/** The same from any storage (the shared database when several nodes sign). */
export function loadManifestKeysFrom(
  storage: KeyRingStorage,
  settings: SigningSettings,
): Promise<ManifestKeys> {
  return storage.update(signingKeysOf(settings));
}

/** The ring's keys as the service signs and publishes them; an operator key file is recorded in it so it stays listed. */
function signingKeysOf(
  settings: SigningSettings,
): (ring: KeyRing | undefined) => RingChange<ManifestKeys> {
  return (stored) => {
    if (settings.keyFile !== null)
      return withOperatorKey(stored, settings.keyFile, settings.enabled);
    if (!settings.enabled)
      return {
        result: {
          signingKeyPem: null,
          published: stored === undefined ? [] : published(stored, null),
        },
      };
    let ring = stored;
    let write: KeyRing | undefined;
    if (ring === undefined || ringSigner(ring) === undefined) {
      ring = write = { format: keyRingFormat, keys: [...(ring?.keys ?? []), generatedKey()] };
    }
    const signer = ringSigner(ring) as RingKey;
    const result = {
      signingKeyPem: signer.private_key_pem ?? null,
      published: published(ring, signer.key_id),
    };
    return write === undefined ? { result } : { result, write };
  };
}

function withOperatorKey(
  stored: KeyRing | undefined,
  keyFile: string,
  enabled: boolean,
): RingChange<ManifestKeys> {
  const pem = readFileSync(keyFile, 'utf8');
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new Error(`${keyFile} is not an Ed25519 private key`);
  const publicKey = createPublicKey(privateKey);
  const keyId = keyIdOf(rawPublicKeyOf(publicKey));
  let ring = stored;
  let write: KeyRing | undefined;
  if (ring === undefined || !ring.keys.some((key) => key.key_id === keyId)) {
    const operatorKey: RingKey = {
      key_id: keyId,
      public_key_pem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      origin: 'operator',
    };
    ring = write = { format: keyRingFormat, keys: [...(ring?.keys ?? []), operatorKey] };
  }
  const result = enabled
    ? { signingKeyPem: pem, published: published(ring, keyId) }
    : { signingKeyPem: null, published: published(ring, null) };
  return write === undefined ? { result } : { result, write };
}

interface Rotation {
  readonly keyId: string;
  readonly retired: readonly string[];
}

/** `ibanqa manifest keygen`: a new active key; the previous generated key keeps only its public half. */
export function rotateManifestKey(dataDir: string): Rotation {
  return changeFile(join(dataDir, keyRingFileName), rotation);
}

/** The same in any storage. */
export function rotateManifestKeyIn(storage: KeyRingStorage): Promise<Rotation> {
  return storage.update(rotation);
}

function rotation(ring: KeyRing | undefined): RingChange<Rotation> {
  const retired = (ring?.keys ?? [])
    .filter((key) => key.private_key_pem !== undefined)
    .map((key) => key.key_id);
  const next = generatedKey();
  const kept = (ring?.keys ?? []).map(({ private_key_pem: _dropped, ...key }) => key);
  return {
    result: { keyId: next.key_id, retired },
    write: { format: keyRingFormat, keys: [...kept, next] },
  };
}
