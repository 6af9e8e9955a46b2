/**
 * A publisher file into the registry: parse it with its source's importer (all of it, before any write),
 * then import the snapshot in one transaction. Shared by the CLI (`registry import`, `registry sync`)
 * and the tests.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { AppError } from '../../errors.js';
import { isoFromCompact } from '../importers/common.js';
import { parseBundesbank } from '../importers/bundesbank.js';
import { parseBundesbankTable } from '../importers/bundesbank-table.js';
import { isGzip } from '../importers/compact-table.js';
import { parseFedach } from '../importers/fedach.js';
import { parseFedwire } from '../importers/fedwire.js';
import { parseGleifLei } from '../importers/gleif-lei.js';
import { parseGleifRr } from '../importers/gleif-rr.js';
import { parseNbb } from '../importers/nbb.js';
import { parseOenb } from '../importers/oenb.js';
import { parseSchwifty } from '../importers/schwifty.js';
import { parseSix } from '../importers/six.js';
import type { ParsedSnapshot } from '../record.js';
import { sha256Hex } from './identity.js';
import type { RegistryStore } from './registry-store.js';
import type { ImportSummary } from './types.js';

type Parser = (bytes: Uint8Array, snapshotDate: string | undefined) => ParsedSnapshot;

const date = (snapshotDate: string | undefined) =>
  snapshotDate === undefined ? {} : { snapshotDate };

/**
 * Importable publisher sources by id. The snapshot date comes from --snapshot-date, else from the file where
 * its format carries one (OeNB header, NBB cell A1, SIX "Gültig seit", GLEIF XML ContentDate, Fed change
 * dates), else from the publisher's own file name (see dateFromFileName); without any, the import is refused.
 */
export const sourceParsers: Readonly<Record<string, Parser>> = {
  'bundesbank-blz': (bytes, snapshotDate) =>
    isCompactBundesbank(bytes)
      ? parseBundesbankTable(bytes, snapshotDate ?? null)
      : parseBundesbank(bytes, date(snapshotDate)),
  'oenb-sepa': (bytes) => parseOenb(bytes),
  'six-bankenstamm': (bytes, snapshotDate) => parseSix(bytes, date(snapshotDate)),
  'nbb-bank-codes': (bytes) => parseNbb(bytes),
  'gleif-lei': (bytes, snapshotDate) => parseGleifLei(bytes, date(snapshotDate)),
  'gleif-rr': (bytes, snapshotDate) => parseGleifRr(bytes, date(snapshotDate)),
  fedach: (bytes, snapshotDate) => parseFedach(bytes, date(snapshotDate)),
  fedwire: (bytes, snapshotDate) => parseFedwire(bytes, date(snapshotDate)),
  schwifty: (bytes, snapshotDate) => parseSchwifty(bytes, date(snapshotDate)),
};

/** The compact table shipped in data/ (gzip, or its header line) rather than the Bundesbank's fixed-width file. */
function isCompactBundesbank(bytes: Uint8Array): boolean {
  return (
    isGzip(bytes) ||
    new TextDecoder().decode(bytes.subarray(0, 'blz\tmerkmal'.length)) === 'blz\tmerkmal'
  );
}

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

/**
 * Dates that publishers put in their file names where the format has none inside: the Bundesbank names its
 * releases by validity start ("blz_2015_09_07_txt.txt", "BLZ_20120903.txt"; the current-release link
 * "blz-aktuell-txt-data.txt" carries none) and GLEIF its golden-copy and delta files by publication
 * ("20240505-0000-gleif-goldencopy-lei2-intra-day.json").
 */
const FILE_NAME_DATES: Readonly<Record<string, RegExp>> = {
  'bundesbank-blz': /^blz[_-]?(\d{4})[_-]?(\d{2})[_-]?(\d{2})(?:\D|$)/i,
  'gleif-lei': /^(\d{4})(\d{2})(\d{2})-\d{4}-gleif-/i,
  'gleif-rr': /^(\d{4})(\d{2})(\d{2})-\d{4}-gleif-/i,
};

export function dateFromFileName(sourceId: string, fileName: string): string | null {
  const match = FILE_NAME_DATES[sourceId]?.exec(basename(fileName));
  if (match === null || match === undefined) return null;
  return isoFromCompact(`${match[1]}${match[2]}${match[3]}`);
}

export function parseSourceFile(
  sourceId: string,
  bytes: Uint8Array,
  snapshotDate?: string,
  fileName?: string,
): ParsedSnapshot {
  const parse = sourceParsers[sourceId];
  if (parse === undefined)
    throw new AppError(
      'invalid_argument',
      `unknown source "${sourceId}"; importable sources: ${importableSources.join(', ')}`,
    );
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
