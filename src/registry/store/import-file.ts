/**
 * A publisher file into the registry: parse it with its source's importer (all of it, before any write),
 * then import the snapshot in one transaction. Shared by the CLI (`registry import`, `registry sync`)
 * and the tests.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { AppError } from '../../errors.js';
import { isoFromCompact } from '../importers/common.js';
import type { ParsedSnapshot } from '../record.js';
import { sha256Hex } from './identity.js';
import type { RegistryStore } from './registry-store.js';
import { registrySource, requireSource } from './sources.js';
import type { ImportSummary } from './types.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface FileImport {
  readonly sourceId: string;
  readonly bytes: Uint8Array;
  readonly fileName: string;
  readonly snapshotDate?: string;
  readonly delta?: boolean;
  readonly now?: Date;
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * The publisher's date from its file name, for sources whose table entry has a file-name rule (the format then
 * carries none inside): the snapshot date comes from --snapshot-date, else from the file where its format
 * carries one, else from here; without any, the import is refused.
 */
export function dateFromFileName(sourceId: string, fileName: string): string | null {
  const match = registrySource(sourceId)?.fileNameDate?.exec(basename(fileName));
  if (match === null || match === undefined) return null;
  return isoFromCompact(`${match[1]}${match[2]}${match[3]}`);
}

export function parseSourceFile(
  sourceId: string,
  bytes: Uint8Array,
  snapshotDate?: string,
  fileName?: string,
): ParsedSnapshot {
  const { parse } = requireSource(sourceId);
  if (
    snapshotDate !== undefined &&
    (!ISO_DATE.test(snapshotDate) || Number.isNaN(Date.parse(`${snapshotDate}T00:00:00Z`)))
  ) {
    throw new AppError(
      'invalid_argument',
      `snapshot date "${snapshotDate}" is not a YYYY-MM-DD date`,
    );
  }
  const parsed = parse(bytes, snapshotDate);
  if (snapshotDate !== undefined) return { ...parsed, snapshot_date: snapshotDate };
  if (parsed.snapshot_date !== null || fileName === undefined) return parsed;
  return { ...parsed, snapshot_date: dateFromFileName(sourceId, fileName) };
}

export function importFile(store: RegistryStore, file: FileImport): ImportSummary {
  const parsed = parseSourceFile(file.sourceId, file.bytes, file.snapshotDate, file.fileName);
  return store.import(parsed, {
    fileSha256: sha256Hex(file.bytes),
    fileName: file.fileName,
    mode: file.delta === true ? 'delta' : 'full',
    origin: 'publisher',
    requireDate: true,
    ...(file.now === undefined ? {} : { now: file.now }),
    ...(file.onProgress === undefined ? {} : { onProgress: file.onProgress }),
  });
}

export function importPath(
  store: RegistryStore,
  sourceId: string,
  path: string,
  options: Omit<FileImport, 'sourceId' | 'bytes' | 'fileName'> = {},
): ImportSummary {
  return importFile(store, {
    ...options,
    sourceId,
    bytes: readFileSync(path),
    fileName: basename(path),
  });
}
