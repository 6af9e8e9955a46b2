/**
 * What the LMDB registry stores: sources, snapshots, records (with stable integer ids) and
 * registry-change/1.0 events. Plain data; the store modules read and write these shapes.
 */
import type { RegistryRecord } from '../record.js';

/** Versioned event schema (spec "Versioning" 4). */
export const changeSchema = 'registry-change/1.0';

export interface StoredSource {
  readonly source_id: string;
  readonly publisher: string;
  readonly title: string;
  readonly license: string;
  /** npm package version for embedded data; null for publisher files. */
  readonly version: string | null;
  /** 'publisher' files win over 'embedded' npm-derived data when both describe one bank code. */
  readonly origin: 'publisher' | 'embedded';
  readonly current_snapshot_id: number;
  readonly snapshot_ids: readonly number[];
  readonly first_imported_at: string;
  readonly last_imported_at: string;
}

export interface ChangeCounts {
  readonly added: number;
  readonly removed: number;
  readonly modified: number;
}

export interface StoredSnapshot {
  readonly snapshot_id: number;
  readonly source_id: string;
  /** The publisher's date for the data (YYYY-MM-DD), or null when neither file nor importer knows it. */
  readonly snapshot_date: string | null;
  /** SHA-256 of the imported file's bytes; null for snapshots built from npm packages (no single file). */
  readonly file_sha256: string | null;
  readonly file_name: string | null;
  /** SHA-256 over the normalized records in file order: identifies the data whatever file carried it. */
  readonly content_sha256: string;
  readonly row_count: number;
  readonly attribution: string;
  readonly license: string;
  readonly version: string | null;
  readonly imported_at: string;
  readonly previous_snapshot_id: number | null;
  readonly ignored_fields: readonly string[];
  /** 'delta': the file carried only new or changed records (GLEIF delta publications); the rest carried over. */
  readonly mode: 'full' | 'delta';
  readonly changes: ChangeCounts;
}

/** A record as stored: the normalized record plus its id, content hash and the snapshot that last changed it. */
export interface StoredRecord extends RegistryRecord {
  readonly record_id: number;
  readonly row_sha256: string;
  readonly since_snapshot_id: number;
}

export interface FieldChange {
  readonly field: string;
  readonly before: string | null;
  readonly after: string | null;
}

export type ChangeType = 'added' | 'removed' | 'modified';

/**
 * One registry-change/1.0 event per added, removed or modified record: every changed published field with
 * its before and after value, both snapshot ids, when the import detected it and the publisher's date.
 */
export interface ChangeEvent {
  readonly schema: typeof changeSchema;
  readonly event_id: number;
  readonly source_id: string;
  readonly record_id: number;
  readonly record_key: string;
  readonly record_type: string;
  readonly change_type: ChangeType;
  readonly changes: readonly FieldChange[];
  readonly snapshot_id: number;
  readonly previous_snapshot_id: number;
  readonly snapshot_date: string | null;
  readonly previous_snapshot_date: string | null;
  readonly detected_at: string;
  /** The new snapshot's publisher date: from when the change applies, as published (null when undated). */
  readonly effective_at: string | null;
}

/** Identifies the data a response came from (spec "Versioning" 5: registry.fingerprint and registry.version). */
export interface RegistryIdentity {
  /** SHA-256 over every source's current snapshot (id and content hash), first 16 hex characters. */
  readonly fingerprint: string;
  /** Count of committed imports: grows with every import, never reused. */
  readonly version: number;
  /** When the last import committed (ISO timestamp); null for an empty registry. */
  readonly generated_at: string | null;
}

export interface ImportSummary {
  readonly source_id: string;
  readonly snapshot_id: number;
  readonly previous_snapshot_id: number | null;
  readonly snapshot_date: string | null;
  readonly row_count: number;
  readonly changes: ChangeCounts;
  readonly events: number;
  /** True when the file's content equals the current snapshot's: nothing was written. */
  readonly unchanged: boolean;
  readonly registry: RegistryIdentity;
}

/** Watches of the registry's former layout, read once to move them to the accounts environment. */
export type { Watch } from '../../ports/watches.js';
