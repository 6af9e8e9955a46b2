/**
 * The bank registry in LMDB. Two kinds of handle: the reader the service's threads hold (main thread and pool
 * workers), opened read-only so nothing the service runs can write the registry, and the importer's writer
 * (`ibanqa registry import`, the start-up import of the embedded default before the reader opens, tests that
 * build registries). lmdb-js shares one native environment per file among every opener of a process, with the
 * flags of the first one, so a process holds a registry one way at a time: opening it the other way while a
 * handle is open throws. A running service sees an import by another process through the version it reads on
 * every request (BankDirectory.syncVersion, currentVersion).
 */
import { AppError } from '../../errors.js';
import type { ParsedSnapshot, RegistryRecord, SourceInfo } from '../record.js';
import { openRegistryDbs, registryPath, type RegistryDbs } from './env.js';
import { identityOf, versionOf } from './identity.js';
import { importSnapshot, type ImportOptions } from './import-snapshot.js';
import type {
  ChangeEvent,
  ImportSummary,
  RegistryIdentity,
  StoredRecord,
  StoredSnapshot,
  StoredSource,
} from './types.js';
import { limits } from '../../limits.js';

type Access = 'read' | 'write';

/** The open handle per registry path of this thread, shared by its callers until the last one closes it. */
const openStores = new Map<string, { store: RegistryStore; users: number }>();

export interface EventQuery {
  readonly sourceId?: string;
  /** Only events with a smaller id (paging backwards from the newest). */
  readonly beforeEventId?: number;
  readonly limit: number;
}

/** An import this handle committed, as it was asked for: what another node needs to make the same import. */
export interface CommittedImport {
  readonly parsed: ParsedSnapshot;
  readonly options: ImportOptions;
  readonly summary: ImportSummary;
}

export class RegistryStore {
  private readonly recordCache = new Map<number, StoredRecord>();
  private cachedVersion = -1;
  private readonly listeners = new Set<() => void>();
  private readonly importObservers = new Set<(imported: CommittedImport) => void>();

  private constructor(
    readonly dbs: RegistryDbs,
    readonly readOnly: boolean,
    private readonly path: string,
  ) {}

  /** The service's handle on `dataDir`'s registry: read-only (LMDB refuses a write through it). */
  static openReader(dataDir: string): RegistryStore {
    return RegistryStore.openAs(dataDir, 'read');
  }

  /** The importer's handle: read-write, created when missing. */
  static openWriter(dataDir: string): RegistryStore {
    return RegistryStore.openAs(dataDir, 'write');
  }

  private static openAs(dataDir: string, access: Access): RegistryStore {
    const path = registryPath(dataDir);
    const existing = openStores.get(path);
    if (existing !== undefined) {
      const held: Access = existing.store.readOnly ? 'read' : 'write';
      if (held !== access) {
        throw new AppError(
          'internal',
          `the registry at ${path} is open for ${held === 'read' ? 'reading' : 'import'} in this process; close it before opening it for ${access === 'read' ? 'reading' : 'import'} (imports into a running service run in a process of their own: ibanqa registry import)`,
        );
      }
      existing.users++;
      return existing.store;
    }
    const readOnly = access === 'read';
    const store = new RegistryStore(openRegistryDbs(dataDir, readOnly), readOnly, path);
    openStores.set(path, { store, users: 1 });
    return store;
  }

  /** Gives up this caller's use; the environment closes with the last one. */
  async close(): Promise<void> {
    const entry = openStores.get(this.path);
    if (entry !== undefined && entry.store === this && --entry.users > 0) return;
    openStores.delete(this.path);
    this.listeners.clear();
    this.importObservers.clear();
    await this.dbs.env.close();
  }

  /** Called after every import through this handle (an import by another process shows in currentVersion()). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Hears every import this handle commits (not the unchanged ones), with what it imported: the one place where
   * a node publishes its imports to the others (src/registry/publish/).
   */
  onImport(observer: (imported: CommittedImport) => void): () => void {
    this.importObservers.add(observer);
    return () => this.importObservers.delete(observer);
  }

  import(parsed: ParsedSnapshot, options: ImportOptions = {}): ImportSummary {
    if (this.readOnly)
      throw new AppError(
        'internal',
        'the registry was opened read-only; imports go through RegistryStore.openWriter',
      );
    const summary = importSnapshot(this.dbs, parsed, options);
    if (summary.unchanged) return summary;
    for (const listener of this.listeners) listener();
    for (const observer of this.importObservers) observer({ parsed, options, summary });
    return summary;
  }

  /**
   * The version as committed right now, by this or another process. lmdb-js reuses one read transaction
   * until it renews it after an event turn; a pool worker between tasks may not have renewed it, so this
   * starts a fresh one first.
   */
  currentVersion(): number {
    this.dbs.env.resetReadTxn();
    return versionOf(this.dbs);
  }

  identity(): RegistryIdentity {
    return identityOf(this.dbs);
  }

  /** The identity as committed right now, by this or another process (see currentVersion). */
  currentIdentity(): RegistryIdentity {
    this.dbs.env.resetReadTxn();
    return identityOf(this.dbs);
  }

  isEmpty(): boolean {
    return this.dbs.sources.getKeysCount() === 0;
  }

  sources(): StoredSource[] {
    return [...this.dbs.sources.getRange()].map((entry) => entry.value);
  }

  source(sourceId: string): StoredSource | undefined {
    return this.dbs.sources.get(sourceId);
  }

  snapshot(snapshotId: number): StoredSnapshot | undefined {
    return this.dbs.snapshots.get(snapshotId);
  }

  snapshotsOf(sourceId: string): StoredSnapshot[] {
    return (this.source(sourceId)?.snapshot_ids ?? []).flatMap((id) => this.snapshot(id) ?? []);
  }

  /**
   * Current records, decoded once per registry version. Lookups read the same hot records again and again, and
   * decoding a record with every published field costs about 5 us and 5 KB: a BIC8 lookup of 25 matches went from
   * 153 to 33 us with this cache. The version is read on every call (one small meta read), so an import by this
   * or another process empties the cache.
   */
  record(recordId: number): StoredRecord | undefined {
    const version = versionOf(this.dbs);
    if (
      version !== this.cachedVersion ||
      this.recordCache.size >= limits.registry.recordCacheEntriesMax
    ) {
      this.recordCache.clear();
      this.cachedVersion = version;
    }
    let record = this.recordCache.get(recordId);
    if (record === undefined) {
      record = this.dbs.current.get(recordId);
      if (record !== undefined) this.recordCache.set(recordId, record);
    }
    return record;
  }

  /**
   * A current record decoded straight from LMDB, past the cache: for a reader that keeps its own digest of what
   * it reads (the bank maps read every bank record once per version). Through record() the start-up preload
   * alone filled the cache with about 84 MB of records that no lookup had asked for.
   */
  recordUncached(recordId: number): StoredRecord | undefined {
    return this.dbs.current.get(recordId);
  }

  recordId(sourceId: string, recordKey: string): number | undefined {
    return this.dbs.recordIds.get([sourceId, recordKey]);
  }

  /** One record as a given snapshot published it. */
  snapshotRecord(snapshotId: number, recordId: number): RegistryRecord | undefined {
    return this.dbs.snapshotRecords.get([snapshotId, recordId]);
  }

  /** Source and key of any record id ever assigned (also records no longer current). */
  recordName(recordId: number): { source_id: string; record_key: string } | undefined {
    const name = this.dbs.recordKeys.get(recordId);
    return name === undefined ? undefined : { source_id: name[0], record_key: name[1] };
  }

  /** A stored snapshot as the importers produce it, for diffs between any two snapshots. */
  snapshotAsParsed(snapshotId: number): ParsedSnapshot {
    const snapshot = this.snapshot(snapshotId);
    if (snapshot === undefined) throw new AppError('not_found', `no snapshot ${snapshotId}`);
    const info = this.source(snapshot.source_id);
    const source: SourceInfo = {
      source_id: snapshot.source_id,
      publisher: snapshot.attribution,
      title: info?.title ?? snapshot.source_id,
      license: snapshot.license,
      version: snapshot.version,
    };
    const range = this.dbs.snapshotRecords.getRange({ start: [snapshotId], end: [snapshotId + 1] });
    const records = [...range].map((entry) => entry.value);
    return {
      source_id: snapshot.source_id,
      source,
      snapshot_date: snapshot.snapshot_date,
      records,
      row_count: records.length,
      ignored_fields: snapshot.ignored_fields,
    };
  }

  /** Newest first. */
  events(query: EventQuery): ChangeEvent[] {
    const before = query.beforeEventId ?? Number.MAX_SAFE_INTEGER;
    const ids =
      query.sourceId === undefined
        ? this.dbs.events.getKeys({ start: before - 1, end: 0, reverse: true, limit: query.limit })
        : this.dbs.eventsBySource
            .getKeys({
              start: [query.sourceId, before - 1],
              end: [query.sourceId, 0],
              reverse: true,
              limit: query.limit,
            })
            .map((key) => (key as [string, number])[1]);
    return [...ids].flatMap((id) => this.dbs.events.get(id as number) ?? []);
  }

  /** Every event of one record, oldest first. */
  eventsOfRecord(recordId: number): ChangeEvent[] {
    const keys = this.dbs.eventsByRecord.getKeys({ start: [recordId, 0], end: [recordId + 1, 0] });
    return [...keys].flatMap((key) => this.dbs.events.get((key as [number, number])[1]) ?? []);
  }

  /** Record ids under one exact index key, ascending, read lazily. */
  idsOf(index: IndexName, key: string): Iterable<number> {
    return this.dbs[index].getValues(key);
  }

  /** Record ids under one exact index key, ascending, at most `limit`. */
  idsAt(index: IndexName, key: string, limit: number): number[] {
    const ids: number[] = [];
    for (const id of this.idsOf(index, key)) {
      ids.push(id);
      if (ids.length >= limit) break;
    }
    return ids;
  }

  /** Entries under keys that start with `prefix`, counted up to `max` (values are not decoded). */
  countWithPrefix(index: IndexName, prefix: string, max: number): number {
    let count = 0;
    // Record ids are at least 1, so every entry counts; the check only reads the entry.
    for (const entry of this.dbs[index].getRange({
      start: prefix,
      end: `${prefix}\uffff`,
      limit: max,
    }))
      if (entry.value > 0) count++;
    return count;
  }

  /** (key, record id) pairs of every index key that starts with `prefix`, in key then id order. */
  *idsWithPrefix(index: IndexName, prefix: string): Generator<{ key: string; id: number }> {
    for (const entry of this.dbs[index].getRange({ start: prefix, end: `${prefix}\uffff` })) {
      yield { key: entry.key, id: entry.value };
    }
  }
}

export type IndexName = 'bic11' | 'bic8' | 'lei' | 'code' | 'codeValue' | 'ibanCode' | 'token';
