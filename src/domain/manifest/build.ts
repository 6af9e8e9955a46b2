import { jcsBytes, sha256Hex } from './canonical.js';
import {
  manifestCanonicalization,
  manifestFormat,
  type ManifestBody,
  type ManifestFixture,
  type ManifestSchemaRef,
  type ManifestSource,
} from './format.js';

/** The schemas every manifest names: its own format and the API contract whose verdicts it records. */
export function defaultSchemas(apiVersion: string): ManifestSchemaRef[] {
  return [
    { name: 'service-fixture-manifest', version: '1.0' },
    { name: 'ibanqa-api', version: apiVersion },
  ];
}

export interface ManifestParts {
  readonly fixtureId: string | undefined;
  readonly seed: string | undefined;
  readonly registrySnapshot: string | undefined;
  readonly registry: { readonly fingerprint: string; readonly version: number | null };
  readonly sources: readonly ManifestSource[];
  readonly schemas: readonly ManifestSchemaRef[];
  readonly expectedOutcomes: readonly string[] | undefined;
  readonly fixtures: readonly ManifestFixture[];
}

/** "valid" and/or "invalid": what the fixtures expect, when the request does not list outcomes itself. */
function outcomesOf(fixtures: readonly ManifestFixture[]): string[] {
  const wanted = new Set<string>(
    fixtures.map((fixture) => (fixture.expected_valid ? 'valid' : 'invalid')),
  );
  return ['valid', 'invalid'].filter((outcome) => wanted.has(outcome));
}

/**
 * The manifest body in a fixed member order. Nothing here reads a clock: the same parts give the same bytes.
 * A derived fixture_id is "fm_" + 24 hex of SHA-256 over the JCS bytes of the body with fixture_id null,
 * so it names the content without depending on itself.
 */
export function manifestBody(parts: ManifestParts): ManifestBody {
  const body: ManifestBody = {
    format: manifestFormat,
    fixture_id: parts.fixtureId ?? '',
    seed: parts.seed ?? null,
    registry_snapshot:
      parts.registrySnapshot ??
      `${parts.registry.fingerprint}@${parts.registry.version ?? 'memory'}`,
    registry: parts.registry,
    sources: parts.sources,
    schemas: parts.schemas,
    expected_outcomes: parts.expectedOutcomes ?? outcomesOf(parts.fixtures),
    fixtures: parts.fixtures,
    canonicalization: manifestCanonicalization,
  };
  if (parts.fixtureId !== undefined) return body;
  return {
    ...body,
    fixture_id: `fm_${sha256Hex(jcsBytes({ ...body, fixture_id: null })).slice(0, 24)}`,
  };
}
