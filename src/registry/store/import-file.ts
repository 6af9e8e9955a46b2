/**
 * A publisher file into the registry: parse it with its source's importer (all of it, before any write),
 * then import the snapshot in one transaction. Shared by the CLI (`registry import`, `registry sync`)
 * and the tests.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { AppError } from '../../errors.js';
import { parseBundesbank } from '../importers/bundesbank.js';
import { parseFedach } from '../importers/fedach.js';
import { parseFedwire } from '../importers/fedwire.js';
import { parseGleifLei } from '../importers/gleif-lei.js';
import { parseGleifRr } from '../importers/gleif-rr.js';
import { parseNbb } from '../importers/nbb.js';
import { parseOenb } from '../importers/oenb.js';
import { parseSix } from '../importers/six.js';
import type { ParsedSnapshot } from '../record.js';
import { sha256Hex } from './identity.js';
import type { RegistryStore } from './registry-store.js';
import type { ImportSummary } from './types.js';

type Parser = (bytes: Uint8Array, snapshotDate: string | undefined) => ParsedSnapshot;

const date = (snapshotDate: string | undefined) => (snapshotDate === undefined ? {} : { snapshotDate });

/** Importable publisher sources by id. Files that carry their own date (OeNB, NBB) may still be overridden. */
export const sourceParsers: Readonly<Record<string, Parser>> = {
  'bundesbank-blz': (bytes, snapshotDate) => parseBundesbank(bytes, date(snapshotDate)),
  'oenb-sepa': (bytes) => parseOenb(bytes),
  'six-bankenstamm': (bytes, snapshotDate) => parseSix(bytes, date(snapshotDate)),
  'nbb-bank-codes': (bytes) => parseNbb(bytes),
  'gleif-lei': (bytes, snapshotDate) => parseGleifLei(bytes, date(snapshotDate)),
  'gleif-rr': (bytes, snapshotDate) => parseGleifRr(bytes, date(snapshotDate)),
  fedach: (bytes, snapshotDate) => parseFedach(bytes, date(snapshotDate)),
  fedwire: (bytes, snapshotDate) => parseFedwire(bytes, date(snapshotDate)),
};

export const importableSources = Object.keys(sourceParsers);

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

export function parseSourceFile(sourceId: string, bytes: Uint8Array, snapshotDate?: string): ParsedSnapshot {
  const parse = sourceParsers[sourceId];
  if (parse === undefined) throw new AppError('invalid_argument', `unknown source "${sourceId}"; importable sources: ${importableSources.join(', ')}`);
  if (snapshotDate !== undefined && (!ISO_DATE.test(snapshotDate) || Number.isNaN(Date.parse(`${snapshotDate}T00:00:00Z`)))) {
    throw new AppError('invalid_argument', `snapshot date "${snapshotDate}" is not a YYYY-MM-DD date`);
  }
  const parsed = parse(bytes, snapshotDate);
  return snapshotDate === undefined ? parsed : { ...parsed, snapshot_date: snapshotDate };
}

export function importFile(store: RegistryStore, file: FileImport): ImportSummary {
  const parsed = parseSourceFile(file.sourceId, file.bytes, file.snapshotDate);
  return store.import(parsed, {
    fileSha256: sha256Hex(file.bytes),
    fileName: file.fileName,
    mode: file.delta === true ? 'delta' : 'full',
    origin: 'publisher',
    ...(file.now === undefined ? {} : { now: file.now }),
    ...(file.onProgress === undefined ? {} : { onProgress: file.onProgress }),
  });
}

export function importPath(store: RegistryStore, sourceId: string, path: string, options: Omit<FileImport, 'sourceId' | 'bytes' | 'fileName'> = {}): ImportSummary {
  return importFile(store, { ...options, sourceId, bytes: readFileSync(path), fileName: basename(path) });
}
