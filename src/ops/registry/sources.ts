import { Type, type Static } from '@sinclair/typebox';
import type { StoredSnapshot, StoredSource } from '../../registry/store/types.js';
import { envelopeOf, envelopeSchemas, requirePlan, type Envelope } from './common.js';
import { defineOp } from '../framework/op.js';
import { nullableString, strictObject } from '../framework/schemas.js';

export const snapshotRowSchema = Type.Object({
  snapshot_id: Type.Integer(),
  snapshot_date: nullableString("The publisher's date for the data (YYYY-MM-DD)"),
  file_name: nullableString('Imported file name; null for npm-embedded data'),
  file_sha256: nullableString('SHA-256 of the imported file; null for npm-embedded data'),
  content_sha256: Type.String({ description: 'SHA-256 over the normalized records' }),
  row_count: Type.Integer(),
  imported_at: Type.String(),
  previous_snapshot_id: Type.Union([Type.Integer(), Type.Null()]),
  mode: Type.Union([Type.Literal('full'), Type.Literal('delta')]),
  changes: Type.Object({
    added: Type.Integer(),
    removed: Type.Integer(),
    modified: Type.Integer(),
  }),
  ignored_fields: Type.Array(Type.String(), {
    description: 'Published fields that never count as a change (download dates, release flags)',
  }),
});

export const sourceRowSchema = Type.Object({
  source_id: Type.String(),
  publisher: Type.String({ description: 'Attribution' }),
  title: Type.String(),
  license: Type.String({
    description: 'Licence or terms of use as the publisher states them (license marker)',
  }),
  version: nullableString('npm package version for embedded data'),
  origin: Type.Union([Type.Literal('publisher'), Type.Literal('embedded')]),
  row_count: Type.Integer({ description: 'Records in the current snapshot' }),
  current_snapshot: snapshotRowSchema,
  snapshots: Type.Array(snapshotRowSchema, {
    description: 'Every imported snapshot, oldest first',
  }),
});

export type SnapshotRow = Static<typeof snapshotRowSchema>;
export type SourceRow = Static<typeof sourceRowSchema>;

export function snapshotRow(snapshot: StoredSnapshot): SnapshotRow {
  return {
    snapshot_id: snapshot.snapshot_id,
    snapshot_date: snapshot.snapshot_date,
    file_name: snapshot.file_name,
    file_sha256: snapshot.file_sha256,
    content_sha256: snapshot.content_sha256,
    row_count: snapshot.row_count,
    imported_at: snapshot.imported_at,
    previous_snapshot_id: snapshot.previous_snapshot_id,
    mode: snapshot.mode,
    changes: { ...snapshot.changes },
    ignored_fields: [...snapshot.ignored_fields],
  };
}

export function sourceRow(source: StoredSource, snapshots: readonly StoredSnapshot[]): SourceRow {
  const rows = snapshots.map(snapshotRow);
  const current =
    rows.find((row) => row.snapshot_id === source.current_snapshot_id) ??
    (rows[rows.length - 1] as SnapshotRow);
  return {
    source_id: source.source_id,
    publisher: source.publisher,
    title: source.title,
    license: source.license,
    version: source.version,
    origin: source.origin,
    row_count: current.row_count,
    current_snapshot: current,
    snapshots: rows,
  };
}

export type SourcesOutput = Envelope & {
  readonly count: number;
  readonly results: readonly SourceRow[];
};

export const bankSources = defineOp({
  name: 'bank.sources',
  needs: ['registry'] as const,
  runsOn: 'any',
  tag: 'Bank intelligence',
  summary: 'Source provenance: snapshots, dates, attribution, licences, row counts',
  description:
    'Every registry source with its publisher (attribution), licence or terms, and every imported snapshot (publisher ' +
    'date, file and content SHA-256, row count, change counts). Needs provenance access: Business plan or higher ' +
    '(403 otherwise). Cost: one API credit.',
  http: { method: 'GET', path: '/bank-intelligence/sources', inputFrom: 'query' },
  grpc: { method: 'BankSources', wrap: 'object' },
  refusals: ['permission_denied'],
  access: 'key',
  input: strictObject({}),
  output: Type.Object({
    ...envelopeSchemas,
    count: Type.Integer(),
    results: Type.Array(sourceRowSchema),
  }),
  gate: (_input, caller) =>
    requirePlan(
      caller,
      'business',
      'permission_denied',
      'Provenance access (bank-intelligence sources)',
    ),
  cost: () => ({ api_calls: 1 }),
  rows: () => 1,
  run: (_input, context): SourcesOutput => {
    const registry = context.registry;
    const results = registry
      .sources()
      .map((source) => sourceRow(source, registry.snapshotsOf(source.source_id)));
    return { ...envelopeOf(registry, 1), count: results.length, results };
  },
});
