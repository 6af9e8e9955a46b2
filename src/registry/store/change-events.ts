/** registry-change/1.0 events from a snapshot diff: one per added, removed or modified record. */
import type { SnapshotDiff } from '../diff.js';
import type { RegistryRecord } from '../record.js';
import {
  changeSchema,
  type ChangeEvent,
  type ChangeType,
  type FieldChange,
  type StoredSnapshot,
} from './types.js';

/** Every published field of a record that appeared or vanished, minus the ones that never count as changes. */
function wholeRecord(
  record: RegistryRecord,
  side: 'before' | 'after',
  ignored: ReadonlySet<string>,
): FieldChange[] {
  return Object.entries(record.fields)
    .filter(([field]) => !ignored.has(field))
    .map(([field, value]) =>
      side === 'after'
        ? { field, before: null, after: value }
        : { field, before: value, after: null },
    );
}

export function changeEventsOf(
  diff: SnapshotDiff,
  idByKey: ReadonlyMap<string, number>,
  previous: StoredSnapshot,
  snapshotId: number,
  detectedAt: string,
  ignored: ReadonlySet<string>,
  nextEventId: () => number,
): ChangeEvent[] {
  const event = (
    record: RegistryRecord,
    type: ChangeType,
    changes: readonly FieldChange[],
  ): ChangeEvent => ({
    schema: changeSchema,
    event_id: nextEventId(),
    source_id: record.source_id,
    record_id: idByKey.get(record.record_key) ?? 0,
    record_key: record.record_key,
    record_type: record.record_type,
    change_type: type,
    changes,
    snapshot_id: snapshotId,
    previous_snapshot_id: previous.snapshot_id,
    snapshot_date: diff.to_date,
    previous_snapshot_date: previous.snapshot_date,
    detected_at: detectedAt,
    effective_at: diff.to_date,
  });
  return [
    ...diff.modified.map((m) => event(m.after, 'modified', m.changes)),
    ...diff.added.map((r) => event(r, 'added', wholeRecord(r, 'after', ignored))),
    ...diff.removed.map((r) => event(r, 'removed', wholeRecord(r, 'before', ignored))),
  ];
}
