/**
 * Every publisher source the registry imports, one entry each: its id, publisher and licence (the importer's
 * SourceInfo), its parser, where its snapshot date comes from, its download address and its record-key rule.
 * The CLI's source list and help, `registry sync`, file-name dates and record-key resolution read this table.
 * A new source is its importer (importers/<x>.ts: a parser and its SourceInfo) plus one entry here
 * (ARCHITECTURE.md, "Where a new registry source goes").
 */
import { AppError } from '../../errors.js';
import { parseBundesbank, bundesbankSource } from '../importers/bundesbank.js';
import { parseBundesbankTable } from '../importers/bundesbank-table.js';
import { isGzip } from '../importers/compact-table.js';
import { fedachSource, parseFedach } from '../importers/fedach.js';
import { fedwireSource, parseFedwire } from '../importers/fedwire.js';
import { gleifLeiSource, parseGleifLei } from '../importers/gleif-lei.js';
import { gleifRrSource, parseGleifRr } from '../importers/gleif-rr.js';
import { nbbSource, parseNbb } from '../importers/nbb.js';
import { oenbSource, parseOenb } from '../importers/oenb.js';
import { parseSchwifty, schwiftySource } from '../importers/schwifty.js';
import { parseSix, sixSource } from '../importers/six.js';
import type { ParsedSnapshot, SourceInfo } from '../record.js';
import { keysAsStored, nbbRangeHolding, sixHeadRecord, type KeyRule } from './key-rules.js';

/** The file's bytes to a snapshot; `snapshotDate` is the operator's --snapshot-date, when given. */
export type SourceParser = (bytes: Uint8Array, snapshotDate: string | undefined) => ParsedSnapshot;

export interface RegistrySource {
  /** Id, publisher, title and licence: what every snapshot of the source records. */
  readonly info: SourceInfo;
  readonly parse: SourceParser;
  /** Where the snapshot date comes from without --snapshot-date (the CLI's help says it). */
  readonly dateFrom: string;
  /**
   * The publisher's file name where it carries the date (groups: year, month, day) and the format has none
   * inside; null when it never does.
   */
  readonly fileNameDate: RegExp | null;
  /**
   * The publisher's stable download address for `registry sync`; null where there is none (a configured URL:
   * IBANQA_SYNC_URL_<ID> or --url).
   */
  readonly syncUrl: string | null;
  /** Keys people know beyond the stored one (record-keys.ts). */
  readonly recordKey: KeyRule;
}

const date = (snapshotDate: string | undefined) =>
  snapshotDate === undefined ? {} : { snapshotDate };

/** The compact table shipped in data/ (gzip, or its header line) rather than the Bundesbank's fixed-width file. */
function isCompactBundesbank(bytes: Uint8Array): boolean {
  return (
    isGzip(bytes) ||
    new TextDecoder().decode(bytes.subarray(0, 'blz\tmerkmal'.length)) === 'blz\tmerkmal'
  );
}

/** GLEIF names its golden-copy and delta files by publication ("20240505-0000-gleif-goldencopy-lei2-intra-day.json"). */
const GLEIF_FILE_NAME = /^(\d{4})(\d{2})(\d{2})-\d{4}-gleif-/i;
const GLEIF_DATES = 'XML: the file header (ContentDate); JSON: the file name, else --snapshot-date';
const FED_DATES = 'the latest change date in the file';

/*
 * Stable download addresses are the publishers' own (the same ones public loaders such as goiban-data-loader
 * use). The Bundesbank file's address changes with every release, GLEIF's golden copy is a multi-gigabyte
 * archive and the Fed stopped public downloads in 2018: those have none.
 */
export const registrySources: readonly RegistrySource[] = [
  {
    info: bundesbankSource,
    parse: (bytes, snapshotDate) =>
      isCompactBundesbank(bytes)
        ? parseBundesbankTable(bytes, snapshotDate ?? null)
        : parseBundesbank(bytes, date(snapshotDate)),
    dateFrom: 'the release file name ("blz_2025_09_08_txt.txt"), else --snapshot-date',
    // By validity start: "blz_2015_09_07_txt.txt", "BLZ_20120903.txt"; the current-release link
    // "blz-aktuell-txt-data.txt" carries none.
    fileNameDate: /^blz[_-]?(\d{4})[_-]?(\d{2})[_-]?(\d{2})(?:\D|$)/i,
    syncUrl: null,
    recordKey: keysAsStored,
  },
  {
    info: oenbSource,
    parse: (bytes) => parseOenb(bytes),
    dateFrom: 'the file header ("SEPA-Verzeichnis-Abfrage vom")',
    fileNameDate: null,
    syncUrl: 'https://www.oenb.at/docroot/downloads_observ/sepa-zv-vz_gesamt.csv',
    recordKey: keysAsStored,
  },
  {
    info: sixSource,
    parse: (bytes, snapshotDate) => parseSix(bytes, date(snapshotDate)),
    dateFrom: 'the latest "Gültig seit" in the file',
    fileNameDate: null,
    syncUrl:
      'https://api.six-group.com/api/epcd/bankmaster/v2/public/downloads/bcbankenstamm_d.xls',
    recordKey: sixHeadRecord,
  },
  {
    info: nbbSource,
    parse: (bytes) => parseNbb(bytes),
    dateFrom: 'cell A1 of the sheet',
    fileNameDate: null,
    syncUrl: 'https://www.nbb.be/doc/be/be/protocol/current_codes.xlsx',
    recordKey: nbbRangeHolding,
  },
  {
    info: gleifLeiSource,
    parse: (bytes, snapshotDate) => parseGleifLei(bytes, date(snapshotDate)),
    dateFrom: GLEIF_DATES,
    fileNameDate: GLEIF_FILE_NAME,
    syncUrl: null,
    recordKey: keysAsStored,
  },
  {
    info: gleifRrSource,
    parse: (bytes, snapshotDate) => parseGleifRr(bytes, date(snapshotDate)),
    dateFrom: GLEIF_DATES,
    fileNameDate: GLEIF_FILE_NAME,
    syncUrl: null,
    recordKey: keysAsStored,
  },
  {
    info: fedachSource,
    parse: (bytes, snapshotDate) => parseFedach(bytes, date(snapshotDate)),
    dateFrom: FED_DATES,
    fileNameDate: null,
    syncUrl: null,
    recordKey: keysAsStored,
  },
  {
    info: fedwireSource,
    parse: (bytes, snapshotDate) => parseFedwire(bytes, date(snapshotDate)),
    dateFrom: FED_DATES,
    fileNameDate: null,
    syncUrl: null,
    recordKey: keysAsStored,
  },
  {
    info: schwiftySource,
    parse: (bytes, snapshotDate) => parseSchwifty(bytes, date(snapshotDate)),
    dateFrom: '--snapshot-date (the package data carries none)',
    fileNameDate: null,
    syncUrl: null,
    recordKey: keysAsStored,
  },
];

const byId = new Map(registrySources.map((source) => [source.info.source_id, source]));

/** The ids of every importable source, in table order. */
export const sourceIds: readonly string[] = [...byId.keys()];

export function registrySource(sourceId: string): RegistrySource | undefined {
  return byId.get(sourceId);
}

/** The source of `sourceId`, or a clear error naming the importable ones. */
export function requireSource(sourceId: string): RegistrySource {
  const source = byId.get(sourceId);
  if (source === undefined)
    throw new AppError(
      'invalid_argument',
      `unknown source "${sourceId}"; importable sources: ${sourceIds.join(', ')}`,
    );
  return source;
}
