import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import type { RegistryReader } from '../../registry/store/registry-reader.js';
import type { ChangeEvent } from '../../registry/store/types.js';
import { envelopeOf, envelopeSchemas, requirePlan, type Envelope } from './common.js';
import { defineOp } from '../framework/op.js';
import { limits } from '../../limits.js';
import { nullableString, strictObject } from '../framework/schemas.js';

export const fieldChangeSchema = Type.Object({
  field: Type.String({ description: 'Published field (column) name' }),
  before: nullableString(
    'Value in the previous snapshot; null when the record or field was not there',
  ),
  after: nullableString('Value in the new snapshot; null when the record or field is gone'),
});

export const changeEventSchema = Type.Object(
  {
    schema: Type.Literal('registry-change/1.0'),
    event_id: Type.Integer(),
    source_id: Type.String(),
    record_id: Type.Integer(),
    record_key: Type.String(),
    record_type: Type.String(),
    change_type: Type.Union([
      Type.Literal('added'),
      Type.Literal('removed'),
      Type.Literal('modified'),
    ]),
    changes: Type.Array(fieldChangeSchema, {
      description: 'Every changed field (all fields for added or removed records)',
    }),
    snapshot_id: Type.Integer({ description: 'The snapshot that showed the change' }),
    previous_snapshot_id: Type.Integer(),
    snapshot_date: nullableString('Publisher date of the new snapshot'),
    previous_snapshot_date: nullableString('Publisher date of the previous snapshot'),
    detected_at: Type.String({ description: 'When the import detected the change (date-time)' }),
    effective_at: nullableString(
      "From when the change applies, as published (the new snapshot's date)",
    ),
  },
  { description: 'registry-change/1.0: one event per added, removed or modified record' },
);

export const sourceIdField = Type.String({
  minLength: 1,
  maxLength: limits.registry.filterCharsMax,
  description: 'A source id from /bank-intelligence/sources',
});

export function knownSourceOrThrow(registry: RegistryReader, sourceId: string): void {
  if (registry.source(sourceId) !== undefined) return;
  const known = registry.sources().map((source) => source.source_id);
  throw new AppError(
    'invalid_argument',
    `Unknown source_id "${sourceId}"; this registry holds: ${known.join(', ')}`,
  );
}

export const changesInput = strictObject({
  source_id: Type.Optional(sourceIdField),
  limit: Type.Integer({
    minimum: 1,
    maximum: limits.registry.changesLimitMax,
    default: limits.registry.changesLimitDefault,
  }),
  before_event_id: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'Paging: only events older than this one (pass next_before_event_id)',
    }),
  ),
});

export type ChangesOutput = Envelope & {
  readonly count: number;
  readonly results: readonly ChangeEvent[];
  readonly next_before_event_id: number | null;
};

export const bankChanges = defineOp({
  name: 'bank.changes',
  needs: ['registry'] as const,
  runsOn: 'any',
  tag: 'Bank intelligence',
  summary: 'Monitored source changes (registry-change/1.0 events), newest first',
  description:
    'Events from published snapshot diffs: one per added, removed or modified record, with before and after per field, ' +
    'both snapshot ids and the detection time. Fields that only carry a download date or release flag are never changes. ' +
    'The first snapshot of a source is its baseline and produces no events. Needs snapshot-diff access: Enterprise plan ' +
    '(403 otherwise). Cost: one API credit.',
  http: { method: 'GET', path: '/bank-intelligence/changes', inputFrom: 'query' },
  grpc: { method: 'BankChanges', wrap: 'object' },
  refusals: ['permission_denied'],
  access: 'key',
  input: changesInput,
  output: Type.Object({
    ...envelopeSchemas,
    count: Type.Integer(),
    results: Type.Array(changeEventSchema),
    next_before_event_id: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Pass as before_event_id for older events; null at the end',
    }),
  }),
  gate: (_input, caller) =>
    requirePlan(
      caller,
      'enterprise',
      'permission_denied',
      'Snapshot-diff access (bank-intelligence changes)',
    ),
  cost: () => ({ api_calls: 1 }),
  rows: () => 1,
  run: (input: Static<typeof changesInput>, context): ChangesOutput => {
    const registry = context.registry;
    if (input.source_id !== undefined) knownSourceOrThrow(registry, input.source_id);
    const page = registry.events({
      limit: input.limit + 1,
      ...(input.source_id === undefined ? {} : { sourceId: input.source_id }),
      ...(input.before_event_id === undefined ? {} : { beforeEventId: input.before_event_id }),
    });
    const results = page.slice(0, input.limit);
    const next = page.length > input.limit ? (results[results.length - 1]?.event_id ?? null) : null;
    return {
      ...envelopeOf(registry, 1),
      count: results.length,
      results,
      next_before_event_id: next,
    };
  },
});
