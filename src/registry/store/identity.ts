/** Content hashes and the registry identity (fingerprint, version) kept in the meta database. */
import { createHash } from 'node:crypto';
import type { RegistryRecord } from '../record.js';
import type { RegistryDbs } from './env.js';
import type { RegistryIdentity, StoredSource } from './types.js';

const FINGERPRINT_HEX_CHARS = 16;

export const metaKeys = {
  nextRecordId: 'next_record_id',
  nextSnapshotId: 'next_snapshot_id',
  nextEventId: 'next_event_id',
  version: 'version',
  generatedAt: 'generated_at',
  fingerprint: 'fingerprint',
} as const;

export function sha256Hex(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A record's content hash: any published or normalized value that differs changes it. */
export function rowHashOf(record: RegistryRecord): string {
  return sha256Hex(JSON.stringify(record));
}

/** The data of a snapshot, whatever file carried it: the row hashes in file order. */
export function contentHashOf(rowHashes: readonly string[]): string {
  const hash = createHash('sha256');
  for (const row of rowHashes) hash.update(row);
  return hash.digest('hex');
}

/** Over every source's current snapshot: two registries with the same fingerprint hold the same data. */
export function fingerprintOf(
  sources: readonly StoredSource[],
  contentOf: (snapshotId: number) => string,
): string {
  const hash = createHash('sha256');
  for (const source of [...sources].sort((a, b) => (a.source_id < b.source_id ? -1 : 1))) {
    hash.update(
      `${source.source_id}:${source.current_snapshot_id}:${contentOf(source.current_snapshot_id)}\n`,
    );
  }
  return hash.digest('hex').slice(0, FINGERPRINT_HEX_CHARS);
}

/** Fingerprint of a registry with no source at all. */
export const emptyFingerprint = fingerprintOf([], () => '');

/** The import counter alone: what caches keyed on the data compare on every read. */
export function versionOf(dbs: RegistryDbs): number {
  return (dbs.meta.get(metaKeys.version) as number | undefined) ?? 0;
}

export function identityOf(dbs: RegistryDbs): RegistryIdentity {
  return {
    fingerprint: (dbs.meta.get(metaKeys.fingerprint) as string | undefined) ?? emptyFingerprint,
    version: (dbs.meta.get(metaKeys.version) as number | undefined) ?? 0,
    generated_at: (dbs.meta.get(metaKeys.generatedAt) as string | undefined) ?? null,
  };
}

/** Takes the next id of a counter inside the caller's write transaction. Ids start at 1. */
export function takeId(dbs: RegistryDbs, key: string): number {
  const id = (dbs.meta.get(key) as number | undefined) ?? 1;
  dbs.meta.putSync(key, id + 1);
  return id;
}
