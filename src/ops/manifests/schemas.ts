import { Type } from '@sinclair/typebox';
import {
  manifestCanonicalization,
  manifestFormat,
  signatureAlgorithm,
} from '../../domain/manifest/format.js';
import { nullableString } from '../framework/schemas.js';

const hex64 = Type.String({ pattern: '^[0-9a-f]{64}$' });

/** The manifest, as a schema: served as JSON Schema 2020-12 at /fixture-manifest/schema/1.0 and used as the op output. */
export const manifestSchema = Type.Object(
  {
    format: Type.Literal(manifestFormat),
    fixture_id: Type.String({
      minLength: 1,
      description: 'From the request, or "fm_" + 24 hex derived from the content',
    }),
    seed: nullableString("The request's seed, echoed"),
    registry_snapshot: Type.String({
      description: 'The request\'s value, else "<registry fingerprint>@<registry version>"',
    }),
    registry: Type.Object({
      fingerprint: Type.String({
        description: 'Registry fingerprint the verdicts were computed against',
      }),
      version: Type.Union([Type.Integer(), Type.Null()], {
        description: 'Registry version (count of imports); null for an in-memory registry',
      }),
    }),
    sources: Type.Array(
      Type.Object(
        {
          source_id: Type.String(),
          origin: Type.Union([Type.Literal('registry'), Type.Literal('client')]),
          license: nullableString('Licence or terms of use as the publisher states them'),
          attribution: nullableString('Publisher'),
          snapshot_date: nullableString('Publisher date of the snapshot (YYYY-MM-DD)'),
          file_sha256: nullableString('SHA-256 of the imported file; null for npm-embedded data'),
          content_sha256: nullableString('SHA-256 over the normalized records of the snapshot'),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'Registry sources whose bank data the verdicts used (sorted by source_id), then the sources the request declared',
      },
    ),
    schemas: Type.Array(
      Type.Object({ name: Type.String(), version: Type.String() }, { additionalProperties: false }),
    ),
    expected_outcomes: Type.Array(Type.String()),
    fixtures: Type.Array(
      Type.Object(
        {
          country: Type.String({ description: 'As in the request' }),
          iban: Type.String({ description: 'As in the request' }),
          expected_valid: Type.Boolean(),
          country_code: nullableString("The fixture country's ISO alpha-2 code"),
          observed_valid: Type.Boolean({
            description: "The validator's verdict (false also when the IBAN is of another country)",
          }),
          error: nullableString('Validation reason, or country_mismatch; null when valid'),
          national_check: Type.String({
            description: 'passed, failed, not_applicable or not_checked',
          }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    canonicalization: Type.Literal(manifestCanonicalization),
    artifact_sha256: {
      ...hex64,
      description:
        'SHA-256 (lowercase hex) of the JCS bytes of the manifest without artifact_sha256 and signature',
    },
    signature: Type.Optional(
      Type.Object(
        {
          alg: Type.Literal(signatureAlgorithm),
          key_id: Type.String({
            pattern: '^[0-9a-f]{16}$',
            description: 'First 16 hex of SHA-256 of the raw 32-byte public key',
          }),
          value: Type.String({
            pattern: '^[A-Za-z0-9_-]{86}$',
            description:
              'base64url (no padding) Ed25519 signature over the JCS bytes of the manifest without signature',
          }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, description: 'A service-fixture-manifest/1.0 artifact' },
);

export const publishedKeySchema = Type.Object({
  key_id: Type.String(),
  alg: Type.Literal('Ed25519'),
  public_key: Type.String({ description: 'Raw 32-byte public key, base64url without padding' }),
  public_key_pem: Type.String({ description: 'The same key as PEM (SubjectPublicKeyInfo)' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('retired')]),
});

/** The schema document: JSON Schema 2020-12 with its own $id (TypeBox output is plain JSON Schema). */
export function manifestJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: '/fixture-manifest/schema/1.0',
    title: manifestFormat,
    ...(JSON.parse(JSON.stringify(manifestSchema)) as Record<string, unknown>),
  };
}
