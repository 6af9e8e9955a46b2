/** The service-fixture-manifest/1.0 format: names and shapes fixed by the published verification rules. */

export const manifestFormat = 'service-fixture-manifest/1.0';
export const manifestCanonicalization = 'RFC8785';
export const signatureAlgorithm = 'Ed25519';

/** Every value in a manifest is a string, boolean, null, integer, array or object: JCS needs no float rules. */
export type JsonValue =
  string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

export interface ManifestFixture {
  readonly country: string;
  readonly iban: string;
  readonly expected_valid: boolean;
  readonly country_code: string | null;
  readonly observed_valid: boolean;
  /** The validator's reason, or country_mismatch when the IBAN belongs to another country than the fixture's. */
  readonly error: string | null;
  readonly national_check: string;
}

export interface ManifestSource {
  readonly source_id: string;
  /** 'registry': a source of the deployment's registry that a verdict used; 'client': declared in the request. */
  readonly origin: 'registry' | 'client';
  readonly license: string | null;
  readonly attribution: string | null;
  readonly snapshot_date: string | null;
  readonly file_sha256: string | null;
  /** SHA-256 over the normalized records of the snapshot (registry sources; npm-embedded data has no file). */
  readonly content_sha256: string | null;
}

export interface ManifestSchemaRef {
  readonly name: string;
  readonly version: string;
}

export interface ManifestSignature {
  readonly alg: typeof signatureAlgorithm;
  readonly key_id: string;
  readonly value: string;
}

/** The manifest without artifact_sha256 and signature: what the artifact hash covers. */
export interface ManifestBody {
  readonly format: typeof manifestFormat;
  readonly fixture_id: string;
  readonly seed: string | null;
  readonly registry_snapshot: string;
  readonly registry: { readonly fingerprint: string; readonly version: number | null };
  readonly sources: readonly ManifestSource[];
  readonly schemas: readonly ManifestSchemaRef[];
  readonly expected_outcomes: readonly string[];
  readonly fixtures: readonly ManifestFixture[];
  readonly canonicalization: typeof manifestCanonicalization;
}

export interface Manifest extends ManifestBody {
  readonly artifact_sha256: string;
  readonly signature?: ManifestSignature;
}
