/**
 * The registry's LMDB environment at `<dataDir>/registry` and its sub-databases. One function opens
 * them all with the same options, so every opener (the service, the CLI, read-only pool workers)
 * decodes the same way. Default msgpack encoding without shared structures: record shapes vary per
 * source (GLEIF flattens to dozens of field sets), which would churn a shared-structure table.
 */
import fs from 'node:fs';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { ChangeEvent, StoredRecord, StoredSnapshot, StoredSource, Watch } from './types.js';
import type { RegistryRecord } from '../record.js';

export const REGISTRY_DIR = 'registry';
/** 17 sub-databases below, plus headroom so a later one needs no migration of this setting. */
const MAX_DBS = 24;

type Key = string | number | (string | number)[];
type Index = Database<number, string>;

export interface RegistryDbs {
  readonly env: RootDatabase;
  /** Counters and the registry identity: next ids, version, generated_at, fingerprint. */
  readonly meta: Database<unknown, string>;
  readonly sources: Database<StoredSource, string>;
  readonly snapshots: Database<StoredSnapshot, number>;
  /** [source_id, record_key] -> record_id: ids are stable across snapshots. */
  readonly recordIds: Database<number, Key>;
  /** record_id -> [source_id, record_key]: names records that have left the current data. */
  readonly recordKeys: Database<[string, string], number>;
  /** [snapshot_id, record_id] -> the record as that snapshot published it (diffs between any two snapshots). */
  readonly snapshotRecords: Database<RegistryRecord, Key>;
  /** record_id -> the record in its source's current snapshot. */
  readonly current: Database<StoredRecord, number>;
  readonly events: Database<ChangeEvent, number>;
  /** [source_id, event_id] and [record_id, event_id] -> 1: event listings per source and per record. */
  readonly eventsBySource: Database<number, Key>;
  readonly eventsByRecord: Database<number, Key>;
  readonly bic11: Index;
  readonly bic8: Index;
  readonly lei: Index;
  /** 'CC|scheme|value' -> record ids (national codes). */
  readonly code: Index;
  /** 'value' -> record ids (a code given without its country or scheme). */
  readonly codeValue: Index;
  /** 'CC|bank code as in the IBAN' -> record ids (what the BankDirectory reads). */
  readonly ibanCode: Index;
  /** folded name/identifier token -> record ids (search). */
  readonly token: Index;
  /** [key_id, watch_id] -> watch: a key only ever ranges over its own prefix. */
  readonly watches: Database<Watch, Key>;
}

export function registryPath(dataDir: string): string {
  return path.join(dataDir, REGISTRY_DIR);
}

export function registryExists(dataDir: string): boolean {
  return fs.existsSync(path.join(registryPath(dataDir), 'data.mdb'));
}

export function openRegistryDbs(dataDir: string, readOnly: boolean): RegistryDbs {
  const envPath = registryPath(dataDir);
  if (!readOnly) fs.mkdirSync(envPath, { recursive: true });
  const env = open({ path: envPath, maxDbs: MAX_DBS, readOnly });
  const index = (name: string): Index =>
    env.openDB<number, string>({ name, dupSort: true, encoding: 'ordered-binary' });
  return {
    env,
    meta: env.openDB({ name: 'meta' }),
    sources: env.openDB({ name: 'sources' }),
    snapshots: env.openDB({ name: 'snapshots' }),
    recordIds: env.openDB({ name: 'record_ids' }),
    recordKeys: env.openDB({ name: 'record_keys' }),
    snapshotRecords: env.openDB({ name: 'snapshot_records' }),
    current: env.openDB({ name: 'current' }),
    events: env.openDB({ name: 'events' }),
    eventsBySource: env.openDB({ name: 'events_by_source' }),
    eventsByRecord: env.openDB({ name: 'events_by_record' }),
    bic11: index('idx_bic11'),
    bic8: index('idx_bic8'),
    lei: index('idx_lei'),
    code: index('idx_code'),
    codeValue: index('idx_code_value'),
    ibanCode: index('idx_iban_code'),
    token: index('idx_token'),
    watches: env.openDB({ name: 'watches' }),
  };
}
