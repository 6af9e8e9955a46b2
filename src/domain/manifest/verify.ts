import type { KeyObject } from 'node:crypto';
import { fromBase64url, jcsBytes, sha256Hex, without } from './canonical.js';
import { manifestCanonicalization, manifestFormat, signatureAlgorithm } from './format.js';
import { keyIdOf, rawPublicKeyOf, verifyEd25519 } from './keys.js';

/** The numbered verification steps, as published at /fixture-manifest/spec; the CLI names the one that failed. */
export const verificationSteps = [
  'Parse the file as JSON. It must be an object whose format is "service-fixture-manifest/1.0" and whose canonicalization is "RFC8785".',
  'Remove the members artifact_sha256 and signature. Canonicalize the rest with RFC 8785 (JCS), encode as UTF-8 and take SHA-256. ' +
    'Its lowercase hex must equal artifact_sha256.',
  'If signing is expected, the manifest must carry signature {alg: "Ed25519", key_id, value}. Pick the pinned public key (or the key ' +
    'listed at /fixture-manifest/spec) whose key_id, the first 16 lowercase hex characters of SHA-256 of the raw 32-byte public key, ' +
    'equals signature.key_id.',
  'Remove only the member signature. Canonicalize the rest with RFC 8785 and encode as UTF-8. Decode signature.value (base64url, no ' +
    'padding) to 64 bytes and verify it as an Ed25519 (RFC 8032) signature over those bytes with that public key.',
  'For every fixture, expected_valid must equal observed_valid. A mismatch means the fixture no longer behaves as pinned (the ' +
    'manifest is authentic, the expectation is not met).',
] as const;

export interface StepResult {
  readonly step: number;
  readonly ok: boolean | null; // null: skipped
  readonly detail: string;
}

export interface Mismatch {
  readonly index: number;
  readonly iban: string;
  readonly expected_valid: boolean;
  readonly observed_valid: boolean;
  readonly error: string | null;
}

export interface VerificationReport {
  readonly valid: boolean;
  readonly signed: boolean;
  readonly signature_key_id: string | null;
  readonly failed_step: number | null;
  readonly steps: readonly StepResult[];
  readonly mismatches: readonly Mismatch[];
}

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Verifies a parsed manifest. `keys`: the public keys to accept (pinned or published). `requireSignature`: an
 * unsigned manifest fails step 3 (a verifier that pinned a key must not accept a manifest stripped of its signature).
 */
export function verifyManifest(
  manifest: unknown,
  keys: readonly KeyObject[],
  requireSignature: boolean,
): VerificationReport {
  const steps: StepResult[] = [];
  if (!checkEnvelope(manifest, steps)) return reportOf(steps, false, null);
  if (!checkDigest(manifest, steps)) return reportOf(steps, manifest.signature !== undefined, null);
  const signature = manifest.signature;
  if (signature === undefined) skipSignature(requireSignature, steps);
  else if (!checkSignature(manifest, signature, keys, requireSignature, steps))
    return reportOf(steps, true, keyIdOfSignature(signature));
  const mismatches = mismatchesOf(manifest.fixtures);
  steps.push(fixturesStep(mismatches));
  return reportOf(steps, signature !== undefined, keyIdOfSignature(signature), mismatches ?? []);
}

/** The report once the steps are taken: valid unless one of them failed. */
function reportOf(
  steps: StepResult[],
  signed: boolean,
  keyId: string | null,
  mismatches: readonly Mismatch[] = [],
): VerificationReport {
  const failed = steps.find((step) => step.ok === false);
  return {
    valid: failed === undefined,
    signed,
    signature_key_id: keyId,
    failed_step: failed?.step ?? null,
    steps,
    mismatches,
  };
}

function keyIdOfSignature(signature: unknown): string | null {
  return isObject(signature) && typeof signature.key_id === 'string' ? signature.key_id : null;
}

/** Step 1: the format and canonicalization members. */
function checkEnvelope(manifest: unknown, steps: StepResult[]): manifest is Obj {
  if (
    !isObject(manifest) ||
    manifest.format !== manifestFormat ||
    manifest.canonicalization !== manifestCanonicalization
  ) {
    steps.push({
      step: 1,
      ok: false,
      detail: `not a ${manifestFormat} manifest canonicalized with ${manifestCanonicalization}`,
    });
    return false;
  }
  steps.push({ step: 1, ok: true, detail: manifestFormat });
  return true;
}

/** Step 2: artifact_sha256 against the content it covers. */
function checkDigest(manifest: Obj, steps: StepResult[]): boolean {
  const actual = sha256Hex(jcsBytes(without(manifest, 'artifact_sha256', 'signature')));
  if (actual !== manifest.artifact_sha256) {
    steps.push({
      step: 2,
      ok: false,
      detail: `artifact_sha256 is ${String(manifest.artifact_sha256)}, the content hashes to ${actual}`,
    });
    return false;
  }
  steps.push({ step: 2, ok: true, detail: `artifact_sha256 ${actual}` });
  return true;
}

/** Steps 3 and 4 of an unsigned manifest: a failure only when a signature is required. */
function skipSignature(requireSignature: boolean, steps: StepResult[]): void {
  steps.push({
    step: 3,
    ok: requireSignature ? false : null,
    detail: requireSignature
      ? 'the manifest is not signed'
      : 'unsigned manifest: signature not checked',
  });
  steps.push({ step: 4, ok: null, detail: 'no signature' });
}

/** Step 5; `mismatches` undefined: the fixtures member is not a list of fixtures. */
function fixturesStep(mismatches: readonly Mismatch[] | undefined): StepResult {
  if (mismatches === undefined)
    return { step: 5, ok: false, detail: 'fixtures is not a list of fixtures' };
  return {
    step: 5,
    ok: mismatches.length === 0,
    detail:
      mismatches.length === 0
        ? 'every fixture behaves as expected'
        : `${mismatches.length} fixture(s) do not behave as expected`,
  };
}

/** Steps 3 and 4; false when one failed (or was skipped because no key is known and none was required). */
function checkSignature(
  manifest: Obj,
  signature: unknown,
  keys: readonly KeyObject[],
  required: boolean,
  steps: StepResult[],
): boolean {
  if (
    !isObject(signature) ||
    signature.alg !== signatureAlgorithm ||
    typeof signature.key_id !== 'string' ||
    typeof signature.value !== 'string'
  ) {
    steps.push({ step: 3, ok: false, detail: 'signature must be {alg: "Ed25519", key_id, value}' });
    return false;
  }
  const key = keys.find((candidate) => keyIdOf(rawPublicKeyOf(candidate)) === signature.key_id);
  if (key === undefined) {
    const ok = required || keys.length > 0 ? false : null;
    steps.push({
      step: 3,
      ok,
      detail:
        keys.length === 0
          ? 'no public key given: signature not checked'
          : `no known public key has key_id ${signature.key_id}`,
    });
    steps.push({ step: 4, ok: null, detail: 'signature not checked' });
    return ok === null;
  }
  steps.push({ step: 3, ok: true, detail: `key ${signature.key_id}` });
  const bytes = fromBase64url(signature.value);
  const ok =
    bytes !== undefined &&
    bytes.length === 64 &&
    verifyEd25519(key, jcsBytes(without(manifest, 'signature')), bytes);
  steps.push({
    step: 4,
    ok,
    detail: ok ? 'Ed25519 signature verifies' : 'the Ed25519 signature does not verify',
  });
  return ok;
}

function mismatchesOf(fixtures: unknown): Mismatch[] | undefined {
  if (!Array.isArray(fixtures)) return undefined;
  const out: Mismatch[] = [];
  for (const [index, fixture] of fixtures.entries()) {
    if (
      !isObject(fixture) ||
      typeof fixture.expected_valid !== 'boolean' ||
      typeof fixture.observed_valid !== 'boolean'
    )
      return undefined;
    if (fixture.expected_valid !== fixture.observed_valid) {
      out.push({
        index,
        iban: String(fixture.iban),
        expected_valid: fixture.expected_valid,
        observed_valid: fixture.observed_valid,
        error: typeof fixture.error === 'string' ? fixture.error : null,
      });
    }
  }
  return out;
}
