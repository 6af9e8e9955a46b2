import { createPublicKey, type KeyObject } from 'node:crypto';
import { base64url, jcsBytes, sha256Hex } from './canonical.js';
import { signatureAlgorithm, type Manifest, type ManifestBody } from './format.js';
import {
  keyIdOf,
  privateKeyFromPem,
  rawPublicKeyOf,
  signEd25519,
  type PublishedKey,
} from './keys.js';

/**
 * The deployment's manifest keys as plain data (it crosses the worker boundary): the private key that signs,
 * or null when signing is off, and every public key published at /fixture-manifest/spec.
 */
export interface ManifestKeys {
  readonly signingKeyPem: string | null;
  readonly published: readonly PublishedKey[];
}

/** Adds artifact_sha256, then the signature over everything but the signature (format rules 2 and 3). */
export function sealManifest(body: ManifestBody, signingKeyPem: string | null): Manifest {
  const hashed: Manifest = { ...body, artifact_sha256: sha256Hex(jcsBytes(body)) };
  if (signingKeyPem === null) return hashed;
  const privateKey: KeyObject = privateKeyFromPem(signingKeyPem);
  const keyId = keyIdOf(rawPublicKeyOf(createPublicKey(privateKey)));
  const value = base64url(signEd25519(privateKey, jcsBytes(hashed)));
  return { ...hashed, signature: { alg: signatureAlgorithm, key_id: keyId, value } };
}
