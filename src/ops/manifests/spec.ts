import { Type } from '@sinclair/typebox';
import { manifestCanonicalization, manifestFormat } from '../../domain/manifest/format.js';
import { verificationSteps } from '../../domain/manifest/verify.js';
import { cite, documents } from '../../domain/sources/citations.js';
import { citationSchema } from '../framework/citation.js';
import { defineOp } from '../framework/op.js';
import { strictObject } from '../framework/schemas.js';
import { manifestJsonSchema, publishedKeySchema } from './schemas.js';

const rules =
  'A manifest is JSON. artifact_sha256 is the lowercase hex SHA-256 of the RFC 8785 (JCS) canonical UTF-8 bytes of the manifest ' +
  'without its artifact_sha256 and signature members. signature.value is the base64url (no padding) Ed25519 signature over the JCS ' +
  'bytes of the manifest without its signature member; key_id is the first 16 lowercase hex characters of SHA-256 of the raw 32-byte ' +
  'public key. Nothing inside the hashed or signed bytes depends on the time of compilation: the same request against the same ' +
  'registry gives byte-identical manifests and signatures. Pin a public key from public_keys (they stay listed after a rotation) ' +
  'and verify offline, e.g. with `ibanqa manifest verify <file> --public-key <pem|base64url>`.';

/** The public documents the format rests on. */
const references = [
  { topic: 'canonical JSON bytes (canonicalization "RFC8785")', source: cite(documents.rfc8785) },
  { topic: 'artifact_sha256 and key_id: SHA-256', source: cite(documents.fips1804, '6.2') },
  { topic: 'signature: Ed25519', source: cite(documents.rfc8032, '5.1') },
  {
    topic: 'public keys: Ed25519 SubjectPublicKeyInfo (PEM)',
    source: cite(documents.rfc8410),
  },
  {
    topic: 'signature.value and raw public keys: base64url without padding',
    source: cite(documents.rfc4648, '5'),
  },
  { topic: 'the manifest schema', source: cite(documents.jsonSchema202012) },
];

export const manifestSpec = defineOp({
  name: 'manifest.spec',
  needs: ['manifestKeys'] as const,
  runsOn: 'main',
  tag: 'Fixture manifests',
  summary: "Manifest schema, verification rules and the deployment's public signing keys",
  description:
    'The JSON Schema of service-fixture-manifest/1.0, the verification rules in prose and as numbered steps, and every public key this deployment has signed with. No key, no credits.',
  http: { method: 'GET', path: '/fixture-manifest/spec', inputFrom: 'query' },
  grpc: {
    method: 'FixtureManifestSpec',
    wrap: 'object',
    toMessage: (output) => {
      const { schema, ...rest } = output as { schema: unknown };
      return { ...rest, schema_json: JSON.stringify(schema) };
    },
  },
  access: 'none',
  input: strictObject({}),
  output: Type.Object({
    success: Type.Literal(true),
    format: Type.Literal(manifestFormat),
    canonicalization: Type.Literal(manifestCanonicalization),
    schema_url: Type.String(),
    schema: Type.Object({}, { additionalProperties: true }),
    verification_rules: Type.String(),
    verification_steps: Type.Array(Type.Object({ step: Type.Integer(), rule: Type.String() })),
    signing: Type.Object({
      enabled: Type.Boolean(),
      active_key_id: Type.Union([Type.String(), Type.Null()]),
    }),
    public_keys: Type.Array(publishedKeySchema),
    references: Type.Array(Type.Object({ topic: Type.String(), source: citationSchema })),
  }),
  cost: () => ({}),
  rows: () => 1,
  run: (_input, context) => {
    const keys = context.manifestKeys;
    const active = keys?.published.find((key) => key.status === 'active');
    return {
      success: true as const,
      format: manifestFormat,
      canonicalization: manifestCanonicalization,
      schema_url: '/fixture-manifest/schema/1.0',
      schema: manifestJsonSchema(),
      verification_rules: rules,
      verification_steps: verificationSteps.map((rule, index) => ({ step: index + 1, rule })),
      signing: {
        enabled: keys?.signingKeyPem !== null && keys !== undefined,
        active_key_id: active?.key_id ?? null,
      },
      public_keys: [...(keys?.published ?? [])],
      references: references.map((entry) => ({ ...entry, source: { ...entry.source } })),
    };
  },
});
