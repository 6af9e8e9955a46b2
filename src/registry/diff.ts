/**
 * The difference between two snapshots of one source: records added, removed, and modified with
 * per-field before/after over `fields` (the columns as published). Fields the source marks as ignored
 * (download dates, release flags) change without the data changing, so they never make a modification.
 */
import { AppError } from '../errors.js';
import type { ParsedSnapshot, RegistryRecord } from './record.js';

export interface FieldChange {
  readonly field: string;
  readonly before: string | null;
  readonly after: string | null;
}

export interface ModifiedRecord {
  readonly key: string;
  readonly before: RegistryRecord;
  readonly after: RegistryRecord;
  readonly changes: readonly FieldChange[];
}

export interface SnapshotDiff {
  readonly source_id: string;
  readonly from_date: string | null;
  readonly to_date: string | null;
  readonly added: readonly RegistryRecord[];
  readonly removed: readonly RegistryRecord[];
  readonly modified: readonly ModifiedRecord[];
}

/** Diff key of a record; null leaves the record out of this view (e.g. branch rows in a main-BLZ diff). */
export type KeyFunction = (record: RegistryRecord) => string | null;

export const byRecordKey: KeyFunction = (record) => record.record_key;

export function diffSnapshots(
  previous: ParsedSnapshot,
  next: ParsedSnapshot,
  keyOf: KeyFunction = byRecordKey,
): SnapshotDiff {
  if (previous.source_id !== next.source_id) {
    throw new AppError(
      'invalid_argument',
      `cannot diff ${previous.source_id} against ${next.source_id}`,
    );
  }
  const ignored = new Set([...previous.ignored_fields, ...next.ignored_fields]);
  const before = indexByKey(previous, keyOf, 'previous');
  const after = indexByKey(next, keyOf, 'next');
  const added: RegistryRecord[] = [];
  const modified: ModifiedRecord[] = [];
  for (const [key, record] of after) {
    const old = before.get(key);
    if (old === undefined) {
      added.push(record);
      continue;
    }
    const changes = fieldChanges(old, record, ignored);
    if (changes.length > 0) modified.push({ key, before: old, after: record, changes });
  }
  const removed = [...before].filter(([key]) => !after.has(key)).map(([, record]) => record);
  return {
    source_id: next.source_id,
    from_date: previous.snapshot_date,
    to_date: next.snapshot_date,
    added,
    removed,
    modified,
  };
}

function indexByKey(
  snapshot: ParsedSnapshot,
  keyOf: KeyFunction,
  side: string,
): Map<string, RegistryRecord> {
  const index = new Map<string, RegistryRecord>();
  for (const record of snapshot.records) {
    const key = keyOf(record);
    if (key === null) continue;
    if (index.has(key))
      throw new AppError(
        'invalid_argument',
        `${side} snapshot has two records with diff key ${key}`,
      );
    index.set(key, record);
  }
  return index;
}

/** Field-level changes in a stable order: the previous record's field order, then fields new in the next. */
export function fieldChanges(
  before: RegistryRecord,
  after: RegistryRecord,
  ignored: ReadonlySet<string>,
): FieldChange[] {
  const names = new Set([...Object.keys(before.fields), ...Object.keys(after.fields)]);
  const changes: FieldChange[] = [];
  for (const field of names) {
    if (ignored.has(field)) continue;
    const was = before.fields[field] ?? null;
    const now = after.fields[field] ?? null;
    if (was !== now) changes.push({ field, before: was, after: now });
  }
  return changes;
}

/** How many modified records changed each field: the per-field summary a change report shows. */
export function changeCountsByField(diff: SnapshotDiff): Map<string, number> {
  const counts = new Map<string, number>();
  for (const record of diff.modified) {
    for (const change of record.changes)
      counts.set(change.field, (counts.get(change.field) ?? 0) + 1);
  }
  return counts;
}
