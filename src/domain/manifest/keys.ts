import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { base64url, fromBase64url } from './canonical.js';

/** The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410): the raw 32-byte key follows it. */
const ed25519SpkiPrefix = Buffer.from('302a300506032b6570032100', 'hex');
const rawKeyBytes = 32;

export function rawPublicKeyOf(key: KeyObject): Buffer {
  const der = key.export({ format: 'der', type: 'spki' });
  if (
    key.asymmetricKeyType !== 'ed25519' ||
    der.length !== ed25519SpkiPrefix.length + rawKeyBytes
  ) {
    throw new TypeError('not an Ed25519 key');
  }
  return der.subarray(ed25519SpkiPrefix.length);
}

export function publicKeyFromRaw(raw: Uint8Array): KeyObject {
  if (raw.length !== rawKeyBytes)
    throw new TypeError(`an Ed25519 public key is ${rawKeyBytes} bytes, got ${raw.length}`);
  return createPublicKey({
    key: Buffer.concat([ed25519SpkiPrefix, raw]),
    format: 'der',
    type: 'spki',
  });
}

/** key_id: the first 16 lowercase hex characters of SHA-256 over the raw 32-byte public key. */
export function keyIdOf(raw: Uint8Array): string {
  return createHash('sha256').update(raw).digest('hex').slice(0, 16);
}

export interface PublishedKey {
  readonly key_id: string;
  readonly alg: 'Ed25519';
  /** Raw 32-byte public key, base64url without padding. */
  readonly public_key: string;
  readonly public_key_pem: string;
  /** 'active' signs new manifests; 'retired' keys stay listed so older manifests keep verifying. */
  readonly status: 'active' | 'retired';
}

export function publishedKeyOf(publicKey: KeyObject, status: PublishedKey['status']): PublishedKey {
  const raw = rawPublicKeyOf(publicKey);
  return {
    key_id: keyIdOf(raw),
    alg: 'Ed25519',
    public_key: base64url(raw),
    public_key_pem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    status,
  };
}

/** A public key given as PEM (SPKI) or as the raw key in base64url. */
export function parsePublicKey(text: string): KeyObject | undefined {
  const trimmed = text.trim();
  try {
    if (trimmed.startsWith('-----BEGIN')) {
      const key = createPublicKey(trimmed);
      return key.asymmetricKeyType === 'ed25519' ? key : undefined;
    }
    const raw = fromBase64url(trimmed);
    return raw === undefined || raw.length !== rawKeyBytes ? undefined : publicKeyFromRaw(raw);
  } catch {
    return undefined;
  }
}

export function generateSigningKey(): { privateKeyPem: string; keyId: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    keyId: keyIdOf(rawPublicKeyOf(publicKey)),
  };
}

/** Private keys parsed once per PEM: signing a manifest should not re-parse the key every request. */
const privateKeys = new Map<string, KeyObject>();

export function privateKeyFromPem(pem: string): KeyObject {
  let key = privateKeys.get(pem);
  if (key === undefined) {
    key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'ed25519')
      throw new TypeError('the signing key is not an Ed25519 private key');
    privateKeys.set(pem, key);
  }
  return key;
}

export function signEd25519(privateKey: KeyObject, message: Uint8Array): Buffer {
  return sign(null, message, privateKey);
}

export function verifyEd25519(
  publicKey: KeyObject,
  message: Uint8Array,
  signature: Uint8Array,
): boolean {
  return verify(null, message, publicKey, signature);
}
