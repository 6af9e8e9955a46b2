/**
 * One import = one LMDB write transaction: the new snapshot's records, the current records and their
 * indexes, one registry-change/1.0 event per added, removed or modified record, the source and the
 * registry identity. Parsing happens before (a malformed file never reaches this), and any failure
 * inside aborts the transaction: the previous snapshot stays exactly as it was.
 */
import { AppError } from '../../errors.js';
import { diffSnapshots, type SnapshotDiff } from '../diff.js';
import type { ParsedSnapshot, RegistryRecord } from '../record.js';
import type { RegistryDbs } from './env.js';
import { contentHashOf, fingerprintOf, identityOf, metaKeys, rowHashOf } from './identity.js';
import { addIndexEntries, removeIndexEntries } from './index-writes.js';
import { changeEventsOf } from './change-events.js';
import type { ImportSummary, StoredSnapshot, StoredSource } from './types.js';

export interface ImportOptions {
  readonly fileSha256?: string | null;
  readonly fileName?: string | null;
  /** 'delta': the file holds only new or changed records (GLEIF delta files); absent records carry over. */
  readonly mode?: 'full' | 'delta';
  /** npm-embedded data ranks below publisher files when both describe one bank code. */
  readonly origin?: 'publisher' | 'embedded';
  readonly now?: Date;
  /**
   * Publisher files: a snapshot without a date is refused unless it holds exactly the current data (then it is
   * the usual no-op). Without a date, "older than the current snapshot" could not be checked.
   */
  readonly requireDate?: boolean;
  /**
   * The registry version the import was computed against, checked inside the write transaction: when another
   * process committed an import in between, this one is refused (`conflict`) rather than written on top of data
   * it did not diff against. A node applying published snapshots sets it (src/registry/publish/apply.ts).
   */
  readonly expectVersion?: number;
  /** Called every PROGRESS_STEP records and at the end (the CLI's progress bar). */
  readonly onProgress?: (done: number, total: number) => void;
}

const PROGRESS_STEP = 1_000;

interface PreviousState {
  readonly snapshot: StoredSnapshot;
  readonly records: Map<
    string,
    { readonly id: number; readonly record: RegistryRecord; readonly hash: string }
  >;
}

function previousState(dbs: RegistryDbs, source: StoredSource | undefined): PreviousState | null {
  if (source === undefined) return null;
  const snapshot = dbs.snapshots.get(source.current_snapshot_id);
  if (snapshot === undefined)
    throw new AppError(
      'internal',
      `source ${source.source_id} names a missing snapshot ${source.current_snapshot_id}`,
    );
  const records: PreviousState['records'] = new Map();
  for (const { key, value } of dbs.snapshotRecords.getRange({
    start: [snapshot.snapshot_id],
    end: [snapshot.snapshot_id + 1],
  })) {
    records.set(value.record_key, {
      id: (key as number[])[1] as number,
      record: value,
      hash: rowHashOf(value),
    });
  }
  return { snapshot, records };
}

function asParsed(
  base: ParsedSnapshot,
  records: readonly RegistryRecord[],
  date: string | null,
  ignored: readonly string[],
): ParsedSnapshot {
  return {
    ...base,
    records,
    row_count: records.length,
    snapshot_date: date,
    ignored_fields: ignored,
  };
}

/** The records the new snapshot holds: the file's, or for a delta the previous ones overlaid with the file's. */
function nextRecords(
  parsed: ParsedSnapshot,
  previous: PreviousState | null,
  mode: 'full' | 'delta',
): RegistryRecord[] {
  if (mode === 'full' || previous === null) return [...parsed.records];
  const merged = new Map([...previous.records].map(([key, entry]) => [key, entry.record]));
  for (const record of parsed.records) merged.set(record.record_key, record);
  return [...merged.values()];
}

function refuseOlder(parsed: ParsedSnapshot, previous: PreviousState | null): void {
  const before = previous?.snapshot.snapshot_date ?? null;
  if (before !== null && parsed.snapshot_date !== null && parsed.snapshot_date < before) {
    throw new AppError(
      'invalid_argument',
      `${parsed.source_id}: snapshot date ${parsed.snapshot_date} is before the current snapshot's ${before}; ` +
        'change events are only recorded forward in time (import into a fresh data directory to study older files)',
    );
  }
}

export function importSnapshot(
  dbs: RegistryDbs,
  parsed: ParsedSnapshot,
  options: ImportOptions = {},
): ImportSummary {
  const mode = options.mode ?? 'full';
  const source = dbs.sources.get(parsed.source_id);
  const previous = previousState(dbs, source);
  const records = nextRecords(parsed, previous, mode);
  const hashes = records.map(rowHashOf);
  const content = contentHashOf(hashes);
  if (previous !== null && previous.snapshot.content_sha256 === content) {
    // The same data again (an identical file, whatever date it is given): nothing is written, the fingerprint
    // stays. For embedded sources the newer package version is recorded, so it is not re-read on every start.
    if (source !== undefined && source.version !== parsed.source.version)
      dbs.sources.putSync(source.source_id, { ...source, version: parsed.source.version });
    return unchangedSummary(dbs, previous.snapshot);
  }
  refuseOlder(parsed, previous);
  if (options.requireDate === true && parsed.snapshot_date === null) {
    throw new AppError(
      'invalid_argument',
      `${parsed.source_id}: the file carries no date; pass the publisher's date for the data (--snapshot-date YYYY-MM-DD), ` +
        'so that an older file can be told from a newer one',
    );
  }
  const next = asParsed(parsed, records, parsed.snapshot_date, parsed.ignored_fields);
  const diff =
    previous === null
      ? null
      : diffSnapshots(
          asParsed(
            parsed,
            [...previous.records.values()].map((e) => e.record),
            previous.snapshot.snapshot_date,
            previous.snapshot.ignored_fields,
          ),
          next,
        );
  const now = (options.now ?? new Date()).toISOString();
  return dbs.env.transactionSync(() =>
    writeImport(dbs, {
      parsed,
      records,
      hashes,
      content,
      previous,
      diff,
      source,
      mode,
      now,
      options,
    }),
  );
}

function unchangedSummary(dbs: RegistryDbs, snapshot: StoredSnapshot): ImportSummary {
  return {
    source_id: snapshot.source_id,
    snapshot_id: snapshot.snapshot_id,
    previous_snapshot_id: snapshot.previous_snapshot_id,
    snapshot_date: snapshot.snapshot_date,
    row_count: snapshot.row_count,
    changes: { added: 0, removed: 0, modified: 0 },
    events: 0,
    unchanged: true,
    registry: identityOf(dbs),
  };
}

interface ImportWork {
  readonly parsed: ParsedSnapshot;
  readonly records: readonly RegistryRecord[];
  readonly hashes: readonly string[];
  readonly content: string;
  readonly previous: PreviousState | null;
  readonly diff: SnapshotDiff | null;
  readonly source: StoredSource | undefined;
  readonly mode: 'full' | 'delta';
  readonly now: string;
  readonly options: ImportOptions;
}

/** Ids handed out inside the transaction; written back once at the end. */
class Counter {
  constructor(
    private readonly dbs: RegistryDbs,
    private readonly key: string,
    public next = (dbs.meta.get(key) as number | undefined) ?? 1,
  ) {}
  take(): number {
    return this.next++;
  }
  save(): void {
    this.dbs.meta.putSync(this.key, this.next);
  }
}

/** ImportOptions.expectVersion, checked inside the write transaction, where no other process can move it. */
function assertExpectedVersion(dbs: RegistryDbs, expected: number | undefined): void {
  if (expected !== undefined && identityOf(dbs).version !== expected)
    throw new AppError(
      'conflict',
      `the registry moved past version ${expected} while this import was prepared`,
    );
}

function writeImport(dbs: RegistryDbs, work: ImportWork): ImportSummary {
  assertExpectedVersion(dbs, work.options.expectVersion);
  const recordIds = new Counter(dbs, metaKeys.nextRecordId);
  const snapshotId = new Counter(dbs, metaKeys.nextSnapshotId).next;
  dbs.meta.putSync(metaKeys.nextSnapshotId, snapshotId + 1);
  const idByKey = writeRecords(dbs, work, snapshotId, recordIds);
  removeGone(dbs, work, idByKey);
  recordIds.save();
  const eventIds = new Counter(dbs, metaKeys.nextEventId);
  const events =
    work.diff === null || work.previous === null
      ? []
      : changeEventsOf(
          work.diff,
          idByKey,
          work.previous.snapshot,
          snapshotId,
          work.now,
          ignoredOf(work),
          () => eventIds.take(),
        );
  for (const event of events) {
    dbs.events.putSync(event.event_id, event);
    dbs.eventsBySource.putSync([event.source_id, event.event_id], event.record_id);
    dbs.eventsByRecord.putSync([event.record_id, event.event_id], 1);
  }
  eventIds.save();
  const changes = {
    added: work.diff?.added.length ?? 0,
    removed: work.diff?.removed.length ?? 0,
    modified: work.diff?.modified.length ?? 0,
  };
  const snapshot = snapshotOf(work, snapshotId, changes);
  dbs.snapshots.putSync(snapshotId, snapshot);
  dbs.sources.putSync(work.parsed.source_id, sourceOf(work, snapshotId));
  const version = ((dbs.meta.get(metaKeys.version) as number | undefined) ?? 0) + 1;
  dbs.meta.putSync(metaKeys.version, version);
  dbs.meta.putSync(metaKeys.generatedAt, work.now);
  const sources = [...dbs.sources.getRange()].map((entry) => entry.value);
  dbs.meta.putSync(
    metaKeys.fingerprint,
    fingerprintOf(sources, (id) =>
      id === snapshotId ? work.content : (dbs.snapshots.get(id)?.content_sha256 ?? ''),
    ),
  );
  return {
    source_id: work.parsed.source_id,
    snapshot_id: snapshotId,
    previous_snapshot_id: work.previous?.snapshot.snapshot_id ?? null,
    snapshot_date: work.parsed.snapshot_date,
    row_count: work.records.length,
    changes,
    events: events.length,
    unchanged: false,
    registry: identityOf(dbs),
  };
}

/** Every record into the snapshot; current records and indexes only where the content changed. */
function writeRecords(
  dbs: RegistryDbs,
  work: ImportWork,
  snapshotId: number,
  recordIds: Counter,
): Map<string, number> {
  const sourceId = work.parsed.source_id;
  const idByKey = new Map<string, number>();
  const total = work.records.length;
  work.records.forEach((record, index) => {
    const before = work.previous?.records.get(record.record_key);
    let id = before?.id ?? dbs.recordIds.get([sourceId, record.record_key]);
    if (id === undefined) {
      id = recordIds.take();
      dbs.recordIds.putSync([sourceId, record.record_key], id);
      dbs.recordKeys.putSync(id, [sourceId, record.record_key]);
    }
    idByKey.set(record.record_key, id);
    dbs.snapshotRecords.putSync([snapshotId, id], record);
    const hash = work.hashes[index] as string;
    if (before?.hash !== hash) {
      if (before !== undefined) removeIndexEntries(dbs, before.record, id);
      dbs.current.putSync(id, {
        ...record,
        record_id: id,
        row_sha256: hash,
        since_snapshot_id: snapshotId,
      });
      addIndexEntries(dbs, record, id);
    }
    if ((index + 1) % PROGRESS_STEP === 0) work.options.onProgress?.(index + 1, total);
  });
  work.options.onProgress?.(total, total);
  return idByKey;
}

/** Records of the previous snapshot that the new one no longer holds leave the current data and its indexes. */
function removeGone(dbs: RegistryDbs, work: ImportWork, idByKey: Map<string, number>): void {
  for (const [key, entry] of work.previous?.records ?? []) {
    if (idByKey.has(key)) continue;
    idByKey.set(key, entry.id);
    removeIndexEntries(dbs, entry.record, entry.id);
    dbs.current.removeSync(entry.id);
  }
}

function ignoredOf(work: ImportWork): Set<string> {
  return new Set([
    ...(work.previous?.snapshot.ignored_fields ?? []),
    ...work.parsed.ignored_fields,
  ]);
}

function snapshotOf(
  work: ImportWork,
  snapshotId: number,
  changes: StoredSnapshot['changes'],
): StoredSnapshot {
  return {
    snapshot_id: snapshotId,
    source_id: work.parsed.source_id,
    snapshot_date: work.parsed.snapshot_date,
    file_sha256: work.options.fileSha256 ?? null,
    file_name: work.options.fileName ?? null,
    content_sha256: work.content,
    row_count: work.records.length,
    attribution: work.parsed.source.publisher,
    license: work.parsed.source.license,
    version: work.parsed.source.version,
    imported_at: work.now,
    previous_snapshot_id: work.previous?.snapshot.snapshot_id ?? null,
    ignored_fields: work.parsed.ignored_fields,
    mode: work.mode,
    changes,
  };
}

function sourceOf(work: ImportWork, snapshotId: number): StoredSource {
  const info = work.parsed.source;
  return {
    source_id: info.source_id,
    publisher: info.publisher,
    title: info.title,
    license: info.license,
    version: info.version,
    origin: work.options.origin ?? work.source?.origin ?? 'publisher',
    current_snapshot_id: snapshotId,
    snapshot_ids: [...(work.source?.snapshot_ids ?? []), snapshotId],
    first_imported_at: work.source?.first_imported_at ?? work.now,
    last_imported_at: work.now,
  };
}
