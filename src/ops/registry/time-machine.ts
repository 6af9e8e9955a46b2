import { Type, type Static } from '@sinclair/typebox';
import type { RegistryReader } from '../../registry/store/registry-reader.js';
import type { RegistryIndex } from '../../registry/registry-index.js';
import type { ChangeEvent, StoredRecord, StoredSnapshot } from '../../registry/store/types.js';
import {
  envelopeOf,
  envelopeSchemas,
  requirePlan,
  seesProvenance,
  type Envelope,
} from './common.js';
import {
  changeEventSchema,
  fieldChangeSchema,
  knownSourceOrThrow,
  sourceIdField,
} from './changes.js';
import { snapshotRow, snapshotRowSchema, type SnapshotRow } from './sources.js';
import { recordViewSchema, RecordViews, type RecordView } from './bank-views.js';
import { defineOp } from '../framework/op.js';
import { limits } from '../../limits.js';
import { nullableString, strictObject } from '../framework/schemas.js';

/** GLEIF publishes the date by which an LEI must be renewed; it is a source-published upcoming date. */
const NEXT_RENEWAL_FIELD = 'Registration.NextRenewalDate';
const ISO_DATE_LENGTH = 'YYYY-MM-DD'.length;

const upcomingSchema = Type.Object({
  kind: Type.Union([
    Type.Literal('deletion_planned'),
    Type.Literal('successor'),
    Type.Literal('scheduled_change'),
    Type.Literal('next_renewal'),
  ]),
  field: nullableString('Published field the entry comes from'),
  value: nullableString('Published value (successor code, renewal date, ...)'),
  effective_at: nullableString(
    'Date the source gives; null when it publishes the intent without a date',
  ),
  snapshot_id: Type.Integer({ description: 'Snapshot that published it' }),
  changes: Type.Array(fieldChangeSchema, {
    description: 'scheduled_change: the published before/after of a snapshot dated in the future',
  }),
  evidence: Type.String(),
});
type Upcoming = Static<typeof upcomingSchema>;

export const timeMachineInput = strictObject({
  source_id: sourceIdField,
  record_key: Type.String({
    minLength: 1,
    maxLength: limits.registry.recordKeyCharsMax,
    description:
      'The record key, or the key people know: Bundesbank bank code (main record; branches "BLZ-record number"), SIX IID, NBB protocol code, OeNB bank code, LEI, routing number',
  }),
});

type TimeMachineOutput = Envelope & {
  source_id: string;
  record_key: string;
  match_status: 'matched' | 'removed' | 'no_match';
  record_id: number | null;
  current: RecordView | null;
  history: ChangeEvent[];
  snapshots: SnapshotRow[];
  upcoming: Upcoming[];
  gaps: string[];
};

function flagEntries(record: StoredRecord, snapshotId: number, today: string): Upcoming[] {
  const entries: Upcoming[] = [];
  const successor = record.successor;
  if (record.deletion_planned) {
    entries.push({
      kind: 'deletion_planned',
      field: 'bankleitzahlloeschung',
      value: '1',
      effective_at: null,
      snapshot_id: snapshotId,
      changes: [],
      evidence: `Bundesbank Bankleitzahllöschung = 1: deletion of this bank code is announced${successor === null ? ', no successor published' : `, successor ${successor.value}`}; the file gives no date`,
    });
  }
  if (successor !== null && (successor.effective_at === null || successor.effective_at >= today)) {
    entries.push({
      kind: 'successor',
      field: `successor:${successor.scheme}`,
      value: successor.value,
      effective_at: successor.effective_at,
      snapshot_id: snapshotId,
      changes: [],
      evidence: `The source publishes ${successor.value} (${successor.scheme}) as successor`,
    });
  }
  const renewal = record.fields[NEXT_RENEWAL_FIELD]?.slice(0, ISO_DATE_LENGTH);
  if (renewal !== undefined && renewal >= today) {
    entries.push({
      kind: 'next_renewal',
      field: NEXT_RENEWAL_FIELD,
      value: renewal,
      effective_at: renewal,
      snapshot_id: snapshotId,
      changes: [],
      evidence: 'GLEIF NextRenewalDate of the LEI registration',
    });
  }
  return entries;
}

/** Source-published future dates only: flags and successors of the current record, and snapshots dated ahead. */
function upcomingOf(
  record: StoredRecord | undefined,
  history: readonly ChangeEvent[],
  currentSnapshot: number,
  today: string,
): Upcoming[] {
  const scheduled: Upcoming[] = history
    .filter((event) => event.effective_at !== null && event.effective_at > today)
    .map((event) => ({
      kind: 'scheduled_change' as const,
      field: null,
      value: null,
      effective_at: event.effective_at,
      snapshot_id: event.snapshot_id,
      changes: [...event.changes],
      evidence: `Snapshot ${event.snapshot_id} is dated ${event.effective_at}: published ahead of its validity`,
    }));
  return [
    ...(record === undefined ? [] : flagEntries(record, currentSnapshot, today)),
    ...scheduled,
  ];
}

/** What this registry cannot know, said plainly instead of filled in. */
function gapsOf(
  snapshots: readonly StoredSnapshot[],
  record: StoredRecord | undefined,
  recordId: number | null,
): string[] {
  const gaps: string[] = [];
  const first = snapshots[0];
  if (first !== undefined)
    gaps.push(
      `History starts with snapshot ${first.snapshot_id} (${first.snapshot_date ?? 'undated'}), the first imported for ${first.source_id}: earlier changes are not in this registry.`,
    );
  if (recordId === null) gaps.push('No imported snapshot of this source holds this record key.');
  else if (record === undefined) gaps.push("The record is not in the source's current snapshot.");
  for (const snapshot of snapshots) {
    if (snapshot.mode === 'delta')
      gaps.push(
        `Snapshot ${snapshot.snapshot_id} was a delta publication: records it did not mention were carried over, not re-confirmed.`,
      );
    if (snapshot.snapshot_date === null)
      gaps.push(`Snapshot ${snapshot.snapshot_id} carries no publisher date.`);
  }
  return gaps;
}

function timeMachine(
  registry: RegistryReader,
  index: RegistryIndex,
  input: Static<typeof timeMachineInput>,
  provenance: boolean,
  today: string,
): TimeMachineOutput {
  knownSourceOrThrow(registry, input.source_id);
  const recordKey = index.recordKey(input.source_id, input.record_key);
  const recordId = registry.recordId(input.source_id, recordKey) ?? null;
  const record = recordId === null ? undefined : registry.record(recordId);
  const history = recordId === null ? [] : registry.eventsOfRecord(recordId);
  const snapshots = registry.snapshotsOf(input.source_id);
  const currentSnapshot = registry.source(input.source_id)?.current_snapshot_id ?? 0;
  return {
    ...envelopeOf(registry, 1),
    source_id: input.source_id,
    record_key: recordKey,
    match_status: record !== undefined ? 'matched' : recordId !== null ? 'removed' : 'no_match',
    record_id: recordId,
    current:
      record === undefined
        ? null
        : new RecordViews(registry, index, { provenance, detail: true }).view(record),
    history,
    snapshots: snapshots.map(snapshotRow),
    upcoming: upcomingOf(record, history, currentSnapshot, today),
    gaps: gapsOf(snapshots, record, recordId),
  };
}

export const registryTimeMachine = defineOp({
  name: 'registry.time_machine',
  needs: ['registry', 'registryIndex'] as const,
  runsOn: 'any',
  tag: 'Registry watchlists',
  summary:
    'Evidence-first view of one source record: current record, published diffs, upcoming dates',
  description:
    "The current normalized record, every published snapshot diff of it (registry-change/1.0 events), the source's " +
    'snapshots, and only source-published upcoming dates: the Bundesbank deletion flag and successor code, successors ' +
    'with a future date, GLEIF next renewal dates, snapshots dated ahead of their validity. It never fills missing history ' +
    'or predicts change; gaps says what is not known. Pin registry.fingerprint and registry.version for reproducible tests. ' +
    'Enterprise plan (403 otherwise). Cost: one API credit.',
  http: { method: 'GET', path: '/registry/time-machine', inputFrom: 'query' },
  grpc: { method: 'TimeMachine', wrap: 'object' },
  refusals: ['permission_denied'],
  access: 'key',
  input: timeMachineInput,
  output: Type.Object({
    ...envelopeSchemas,
    source_id: Type.String(),
    record_key: Type.String(),
    match_status: Type.Union([
      Type.Literal('matched'),
      Type.Literal('removed'),
      Type.Literal('no_match'),
    ]),
    record_id: Type.Union([Type.Integer(), Type.Null()]),
    current: Type.Union([recordViewSchema, Type.Null()]),
    history: Type.Array(changeEventSchema, { description: 'Oldest first' }),
    snapshots: Type.Array(snapshotRowSchema),
    upcoming: Type.Array(upcomingSchema),
    gaps: Type.Array(Type.String()),
  }),
  gate: (_input, caller) =>
    requirePlan(caller, 'enterprise', 'permission_denied', 'The registry time machine'),
  cost: () => ({ api_calls: 1 }),
  rows: () => 1,
  run: (input, context): TimeMachineOutput =>
    timeMachine(
      context.registry,
      context.registryIndex,
      input,
      seesProvenance(context.caller),
      context.now().toISOString().slice(0, ISO_DATE_LENGTH),
    ),
});
