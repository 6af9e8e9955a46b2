import { Type, type Static } from '@sinclair/typebox';
import { createPublicKey } from 'node:crypto';
import { defaultSchemas, manifestBody } from '../../domain/manifest/build.js';
import type {
  ManifestFixture,
  ManifestSchemaRef,
  ManifestSource,
} from '../../domain/manifest/format.js';
import { sealManifest } from '../../domain/manifest/signing.js';
import { verifyManifest } from '../../domain/manifest/verify.js';
import { validateIban } from '../../domain/iban/index.js';
import { contractVersion } from '../../contract-version.js';
import { artifactLimits } from '../../limits.js';
import type { BankDirectory } from '../../registry/bank-directory.js';
import type { RegistryReader } from '../../registry/store/registry-reader.js';
import { countryOrThrow } from '../framework/country.js';
import { defineOp, type RunContext } from '../framework/op.js';
import { countryField, strictObject } from '../framework/schemas.js';
import { requirePlan } from '../registry/common.js';
import { manifestSchema } from './schemas.js';

const text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, ...(description === undefined ? {} : { description }) });
const reference = artifactLimits.manifestReferenceCharsMax;

export const manifestCompileInput = strictObject({
  fixture_id: Type.Optional(
    text(
      artifactLimits.manifestIdCharsMax,
      'Your id for the manifest; default: derived from its content',
    ),
  ),
  seed: Type.Optional(
    text(
      artifactLimits.manifestIdCharsMax,
      'The seed your fixtures were generated with, recorded as is',
    ),
  ),
  registry_snapshot: Type.Optional(
    text(
      artifactLimits.manifestIdCharsMax,
      'Your registry pin; default: "<fingerprint>@<version>" in force',
    ),
  ),
  fixtures: Type.Array(
    strictObject({
      country: countryField,
      iban: Type.String({ minLength: 1, maxLength: artifactLimits.manifestIbanCharsMax }),
      expected_valid: Type.Boolean(),
    }),
    {
      minItems: 1,
      maxItems: artifactLimits.manifestFixturesMax,
      description: `1 to ${artifactLimits.manifestFixturesMax} fixtures`,
    },
  ),
  sources: Type.Optional(
    Type.Array(
      strictObject({
        source_id: text(artifactLimits.manifestIdCharsMax),
        license: Type.Optional(text(reference)),
        attribution: Type.Optional(text(reference)),
        snapshot_date: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
        file_sha256: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$' })),
      }),
      {
        maxItems: artifactLimits.manifestReferencesMax,
        description: 'Sources of your own fixtures, recorded after the registry sources',
      },
    ),
  ),
  schemas: Type.Optional(
    Type.Array(
      strictObject({
        name: text(artifactLimits.manifestIdCharsMax),
        version: text(artifactLimits.manifestIdCharsMax),
      }),
      {
        maxItems: artifactLimits.manifestReferencesMax,
        description: "Schema versions your harness relies on, recorded after the service's own",
      },
    ),
  ),
  expected_outcomes: Type.Optional(
    Type.Array(text(artifactLimits.manifestOutcomeCharsMax), {
      maxItems: artifactLimits.manifestOutcomesMax,
    }),
  ),
});
type CompileInput = Static<typeof manifestCompileInput>;

/** The validator's verdict on one fixture; an IBAN of another country than the fixture's is country_mismatch. */
function observed(
  fixture: CompileInput['fixtures'][number],
  bank: BankDirectory,
): { row: ManifestFixture; sourceId: string | undefined } {
  const country = countryOrThrow(fixture.country);
  const verdict = validateIban(fixture.iban, bank);
  const mismatch = verdict.valid && verdict.countryCode !== country.code;
  const info =
    verdict.countryCode !== null && verdict.bankCode !== null
      ? bank.bankOf(verdict.countryCode, verdict.bankCode)
      : undefined;
  return {
    row: {
      country: fixture.country,
      iban: fixture.iban,
      expected_valid: fixture.expected_valid,
      country_code: country.code,
      observed_valid: verdict.valid && !mismatch,
      error: mismatch ? 'country_mismatch' : verdict.error,
      national_check: verdict.nationalCheck,
    },
    sourceId: info?.sourceId,
  };
}

/** Provenance of every registry source a verdict used (its bank data or national check method), by source_id. */
function registrySources(
  registry: RegistryReader | undefined,
  bank: BankDirectory,
  used: ReadonlySet<string>,
): { sources: ManifestSource[]; registry: { fingerprint: string; version: number | null } } {
  if (registry === undefined) {
    const sources = [...used].sort().map((source_id): ManifestSource => ({
      source_id,
      origin: 'registry',
      license: null,
      attribution: null,
      snapshot_date: null,
      file_sha256: null,
      content_sha256: null,
    }));
    return { sources, registry: { fingerprint: bank.fingerprint, version: null } };
  }
  const identity = registry.identity();
  const sources = registry
    .sources()
    .filter((source) => used.has(source.source_id))
    .sort((a, b) => (a.source_id < b.source_id ? -1 : 1))
    .map((source): ManifestSource => {
      const snapshot = registry
        .snapshotsOf(source.source_id)
        .find((candidate) => candidate.snapshot_id === source.current_snapshot_id);
      return {
        source_id: source.source_id,
        origin: 'registry',
        license: source.license,
        attribution: source.publisher,
        snapshot_date: snapshot?.snapshot_date ?? null,
        file_sha256: snapshot?.file_sha256 ?? null,
        content_sha256: snapshot?.content_sha256 ?? null,
      };
    });
  return { sources, registry: { fingerprint: identity.fingerprint, version: identity.version } };
}

function clientSource(source: NonNullable<CompileInput['sources']>[number]): ManifestSource {
  return {
    source_id: source.source_id,
    origin: 'client',
    license: source.license ?? null,
    attribution: source.attribution ?? null,
    snapshot_date: source.snapshot_date ?? null,
    file_sha256: source.file_sha256 ?? null,
    content_sha256: null,
  };
}

export function compileManifest(
  input: CompileInput,
  context: Pick<RunContext, 'bank' | 'manifestKeys'> & Partial<Pick<RunContext, 'registry'>>,
) {
  const verdicts = input.fixtures.map((fixture) => observed(fixture, context.bank));
  const used = new Set(
    verdicts.flatMap((verdict) => (verdict.sourceId === undefined ? [] : [verdict.sourceId])),
  );
  const { sources, registry } = registrySources(context.registry, context.bank, used);
  const schemas: ManifestSchemaRef[] = [
    ...defaultSchemas(contractVersion),
    ...(input.schemas ?? []),
  ];
  const body = manifestBody({
    fixtureId: input.fixture_id,
    seed: input.seed,
    registrySnapshot: input.registry_snapshot,
    registry,
    sources: [...sources, ...(input.sources ?? []).map(clientSource)],
    schemas,
    expectedOutcomes: input.expected_outcomes,
    fixtures: verdicts.map((verdict) => verdict.row),
  });
  const manifest = sealManifest(body, context.manifestKeys?.signingKeyPem ?? null);
  // The service checks its own artifact the way a client would: hash, signature with the published keys, fixtures.
  const keys = (context.manifestKeys?.published ?? []).map((key) =>
    createPublicKey(key.public_key_pem),
  );
  const report = verifyManifest(manifest, keys, manifest.signature !== undefined);
  return {
    success: true as const,
    manifest,
    verification: {
      valid: report.valid,
      signed: report.signed,
      signature_key_id: report.signature_key_id,
      mismatches: [...report.mismatches],
    },
  };
}

export const manifestCompile = defineOp({
  name: 'manifest.compile',
  needs: ['bank', 'registry', 'manifestKeys'] as const,
  runsOn: 'any',
  tag: 'Fixture manifests',
  summary: 'Compile a signed, deterministic fixture manifest',
  description:
    "Records 1-500 fixtures {country, iban, expected_valid} with the validator's observed verdict, the registry fingerprint, version " +
    'and the sources the verdicts used, schema versions and expected outcomes; adds artifact_sha256 (SHA-256 over RFC 8785 JCS) and, ' +
    'when signing is on, an Ed25519 signature (rules at /fixture-manifest/spec). No clock inside: the same request against the same ' +
    'registry gives byte-identical manifests. verification.valid is false when a fixture does not behave as expected (listed in ' +
    'verification.mismatches; not an error). Pro plan or higher (402 otherwise). Cost: one API credit per fixture.',
  http: { method: 'POST', path: '/fixture-manifest/compile', inputFrom: 'body' },
  grpc: {
    method: 'FixtureManifestCompile',
    wrap: 'object',
    // The exact JSON text travels: a protobuf message cannot keep JSON nulls and member names, and the hash is over them.
    toMessage: (output) => {
      const { manifest, ...rest } = output as { manifest: unknown };
      return { ...rest, manifest_json: JSON.stringify(manifest) };
    },
  },
  access: 'key',
  input: manifestCompileInput,
  output: Type.Object({
    success: Type.Literal(true),
    manifest: manifestSchema,
    verification: Type.Object({
      valid: Type.Boolean({
        description: 'Hash and signature verify and every fixture behaves as expected',
      }),
      signed: Type.Boolean(),
      signature_key_id: Type.Union([Type.String(), Type.Null()]),
      mismatches: Type.Array(
        Type.Object({
          index: Type.Integer(),
          iban: Type.String(),
          expected_valid: Type.Boolean(),
          observed_valid: Type.Boolean(),
          error: Type.Union([Type.String(), Type.Null()]),
        }),
      ),
    }),
  }),
  gate: (_input, caller) =>
    requirePlan(caller, 'pro', 'payment_required', 'Fixture manifest compilation'),
  // Each fixture names its country (fixtures[].country), so an unknown one is the spec's "Invalid country".
  refusals: ['invalid_country'],
  cost: (input) => ({ api_calls: input.fixtures.length }),
  rows: (input) => input.fixtures.length,
  run: (input, context) => compileManifest(input, context),
});
