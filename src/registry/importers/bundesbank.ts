/**
 * Deutsche Bundesbank Bankleitzahlendatei (blz-aktuell-txt-data.txt): fixed width, 168 characters per
 * record, ISO-8859-1 from the Bundesbank or UTF-8 from mirrors. The file carries no date: the caller
 * passes the validity start of the release.
 */
import type { ParsedSnapshot, RegistryRecord, SourceInfo } from '../record.js';
import {
  decodeText,
  invalidInput,
  KeyRegistry,
  makeRecord,
  normalizeBic,
  splitLines,
  blankToNull,
  type TextEncoding,
} from './common.js';
import { fieldTable, sliceFields } from './fixed-width.js';

const KIND = 'Bundesbank BLZ file';
const LINE_WIDTH = 168;
const NO_SUCCESSOR = '00000000';

export const bundesbankSource: SourceInfo = {
  source_id: 'bundesbank-blz',
  publisher: 'Deutsche Bundesbank',
  title: 'Bankleitzahlendatei',
  license:
    'Deutsche Bundesbank usage notes (free, non-binding publication; cite "Deutsche Bundesbank"); not an open licence',
  version: null,
};

/** Positions from the Bundesbank record description; examples from the Bundesbank's own record. */
export const bundesbankTable = fieldTable(KIND, LINE_WIDTH, [
  { name: 'blz', position: 1, width: 8, example: '10000000' },
  { name: 'merkmal', position: 9, width: 1, example: '1' },
  { name: 'name', position: 10, width: 58, example: 'Bundesbank' },
  { name: 'plz', position: 68, width: 5, example: '10591' },
  { name: 'ort', position: 73, width: 35, example: 'Berlin' },
  { name: 'kurz', position: 108, width: 27, example: 'BBk Berlin' },
  { name: 'pan', position: 135, width: 5, example: '20100' },
  { name: 'bic', position: 140, width: 11, example: 'MARKDEF1100' },
  { name: 'pruefzifferberechnungsmethode', position: 151, width: 2, example: '09' },
  { name: 'datensatznummer', position: 153, width: 6, example: '011380' },
  { name: 'aenderungskennzeichen', position: 159, width: 1, example: 'U' },
  { name: 'bankleitzahlloeschung', position: 160, width: 1, example: '0' },
  { name: 'nachfolge_blz', position: 161, width: 8, example: '00000000' },
]);

/** Each field's allowed shape; anything else means a shifted or corrupted line. */
const FIELD_PATTERNS: Readonly<Record<string, RegExp>> = {
  blz: /^\d{8}$/,
  merkmal: /^[12]$/,
  plz: /^\d{5}$/,
  pruefzifferberechnungsmethode: /^[0-9A-Z]{2}$/,
  datensatznummer: /^\d{6}$/,
  aenderungskennzeichen: /^[AMDU]$/,
  bankleitzahlloeschung: /^[01]$/,
  nachfolge_blz: /^\d{8}$/,
};

export interface BundesbankOptions {
  /** Validity start of the release (YYYY-MM-DD); the file itself has none. */
  readonly snapshotDate?: string;
  readonly encoding?: TextEncoding;
}

export function parseBundesbank(
  bytes: Uint8Array,
  options: BundesbankOptions = {},
): ParsedSnapshot {
  const lines = splitLines(decodeText(bytes, options.encoding ?? 'auto', KIND));
  if (lines.length === 0) throw invalidInput(KIND, 1, 'no records');
  const recordNumbers = new KeyRegistry(KIND);
  const keys = new KeyRegistry(KIND);
  const records = lines.map((line, index) => {
    const lineNumber = index + 1;
    const fields = sliceFields(bundesbankTable, line, lineNumber);
    checkPatterns(fields, lineNumber);
    recordNumbers.claim(fields.datensatznummer ?? '', lineNumber);
    const record = bundesbankRecord(fields);
    keys.claim(record.record_key, lineNumber);
    return record;
  });
  return {
    source_id: bundesbankSource.source_id,
    source: bundesbankSource,
    snapshot_date: options.snapshotDate ?? null,
    records,
    row_count: records.length,
    // The flag describes the change against the previous release, so it flips without the bank changing.
    ignored_fields: ['aenderungskennzeichen'],
  };
}

function checkPatterns(fields: Record<string, string>, lineNumber: number): void {
  for (const [name, pattern] of Object.entries(FIELD_PATTERNS)) {
    const value = fields[name] ?? '';
    if (!pattern.test(value))
      throw invalidInput(KIND, lineNumber, `field ${name} has unexpected value "${value}"`);
  }
}

/**
 * The key people use: the bank code for the main record (Merkmal 1, one per BLZ), and bank code plus the
 * Bundesbank's stable record number for a further branch record ("10050000-012345"), so a branch stays the
 * same record across releases and is still found under its bank code.
 */
export function bundesbankRecordKey(blz: string, merkmal: string, datensatznummer: string): string {
  return merkmal === '1' ? blz : `${blz}-${datensatznummer}`;
}

/** One record from the published columns (by field name); the embedded compact table builds records the same way. */
export function bundesbankRecord(fields: Record<string, string>): RegistryRecord {
  const field = (name: string): string => fields[name] ?? '';
  const successor = field('nachfolge_blz');
  return makeRecord({
    source_id: bundesbankSource.source_id,
    record_key: bundesbankRecordKey(field('blz'), field('merkmal'), field('datensatznummer')),
    record_type: field('merkmal') === '1' ? 'bank' : 'branch',
    country_code: 'DE',
    legal_name: blankToNull(field('name')),
    short_name: blankToNull(field('kurz')),
    bic: normalizeBic(field('bic')),
    domestic_codes: [{ scheme: 'de_blz', value: field('blz') }],
    address: {
      street: null,
      postal_code: blankToNull(field('plz')),
      city: blankToNull(field('ort')),
      region: null,
    },
    account_checksum_method: field('pruefzifferberechnungsmethode'),
    successor:
      successor === NO_SUCCESSOR
        ? null
        : { scheme: 'de_blz', value: successor, effective_at: null },
    deletion_planned: field('bankleitzahlloeschung') === '1',
    fields,
  });
}

/** Diff key for the Bundesbank view the README documents: main records (Merkmal 1) keyed by BLZ. */
export function bundesbankMainBlzKey(record: RegistryRecord): string | null {
  return record.fields.merkmal === '1' ? (record.fields.blz ?? null) : null;
}
