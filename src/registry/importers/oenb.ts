/**
 * Oesterreichische Nationalbank SEPA directory (sepa-zv-vz_gesamt.csv): 5 preamble lines ending in
 * "SEPA-Verzeichnis-Abfrage vom DD.MM.YYYY", then a ';'-separated header and one row per bank code.
 *
 * A plain split instead of fast-csv: the OeNB format has no quoting or escaping (a '"' anywhere is
 * rejected below rather than guessed at), and fast-csv is stream-based and asynchronous, while importers
 * are synchronous pure functions over bytes.
 */
import type {
  DomesticCode,
  ParsedSnapshot,
  RecordType,
  RegistryRecord,
  SourceInfo,
} from '../record.js';
import {
  blankToNull,
  decodeText,
  invalidInput,
  isoFromDayMonthYear,
  KeyRegistry,
  makeRecord,
  normalizeBic,
  splitLines,
  type TextEncoding,
} from './common.js';

const KIND = 'OeNB SEPA directory';
const SEPARATOR = ';';
/** Disclaimer (3 lines), a blank line, then the query date line: the header is line 6. */
const PREAMBLE_LINES = 5;
const DATE_LINE_PATTERN = /^SEPA-Verzeichnis-Abfrage vom (\d{2}\.\d{2}\.\d{4})\s*$/;
/**
 * Bank codes are 5 digits except two published shorter (100 Oesterreichische Nationalbank, 1000 Republik
 * Österreich in 2025); they are kept exactly as published, never padded on a guess.
 */
const BLZ_PATTERN = /^\d{1,5}$/;
/** The OeNB's placeholder where the company-register number of the OeNB itself would be. */
const NO_REGISTER_NUMBER = 'nullnull';

export const oenbSource: SourceInfo = {
  source_id: 'oenb-sepa',
  publisher: 'Oesterreichische Nationalbank',
  title: 'SEPA-Verzeichnis (sepa-zv-vz_gesamt.csv)',
  license: 'OeNB disclaimer and copyright terms ("Impressum und Haftung"); not an open licence',
  version: null,
};

export const oenbColumns = [
  'Kennzeichen',
  'Identnummer',
  'Bankleitzahl',
  'Institutsart',
  'Sektor',
  'Firmenbuchnummer',
  'Bankenname',
  'Straße',
  'PLZ',
  'Ort',
  'Postadresse / Straße',
  'Postadresse / PLZ',
  'Postadresse / Ort',
  'Postfach',
  'Bundesland',
  'Telefon',
  'Fax',
  'E-Mail',
  'SWIFT-Code',
  'Homepage',
  'Gründungsdatum',
  'LEI',
] as const;

export interface OenbOptions {
  readonly encoding?: TextEncoding;
}

export function parseOenb(bytes: Uint8Array, options: OenbOptions = {}): ParsedSnapshot {
  const lines = splitLines(decodeText(bytes, options.encoding ?? 'auto', KIND));
  const snapshotDate = readSnapshotDate(lines);
  checkHeader(lines[PREAMBLE_LINES], PREAMBLE_LINES + 1);
  const keys = new KeyRegistry(KIND);
  const records: RegistryRecord[] = [];
  for (let index = PREAMBLE_LINES + 1; index < lines.length; index++) {
    const lineNumber = index + 1;
    const fields = readRow(lines[index] ?? '', lineNumber);
    const blz = fields.Bankleitzahl ?? '';
    if (!BLZ_PATTERN.test(blz))
      throw invalidInput(KIND, lineNumber, `Bankleitzahl "${blz}" is not 1-5 digits`);
    keys.claim(blz, lineNumber);
    records.push(toRecord(fields));
  }
  if (records.length === 0)
    throw invalidInput(KIND, lines.length + 1, 'no data rows after the header');
  return {
    source_id: oenbSource.source_id,
    source: oenbSource,
    snapshot_date: snapshotDate,
    records,
    row_count: records.length,
    ignored_fields: [],
  };
}

function readSnapshotDate(lines: readonly string[]): string {
  const line = lines[PREAMBLE_LINES - 1];
  const match = line === undefined ? null : DATE_LINE_PATTERN.exec(line);
  const iso = match?.[1] === undefined ? null : isoFromDayMonthYear(match[1]);
  if (iso === null)
    throw invalidInput(
      KIND,
      PREAMBLE_LINES,
      'missing "SEPA-Verzeichnis-Abfrage vom DD.MM.YYYY" line',
    );
  return iso;
}

function checkHeader(line: string | undefined, lineNumber: number): void {
  const expected = oenbColumns.join(SEPARATOR);
  if (line?.trim() !== expected)
    throw invalidInput(
      KIND,
      lineNumber,
      `missing header "${oenbColumns[0]};${oenbColumns[1]};..."`,
    );
}

function readRow(line: string, lineNumber: number): Record<string, string> {
  if (line.includes('"'))
    throw invalidInput(KIND, lineNumber, 'quoted field; the OeNB format has no quoting');
  const cells = line.split(SEPARATOR);
  if (cells.length !== oenbColumns.length) {
    throw invalidInput(KIND, lineNumber, `${cells.length} columns, expected ${oenbColumns.length}`);
  }
  const fields: Record<string, string> = {};
  oenbColumns.forEach((column, i) => {
    fields[column] = (cells[i] ?? '').trim();
  });
  return fields;
}

/** Hauptanstalt = head office, Filiale = branch of a foreign bank, empty = a further code of the same institution. */
function recordTypeOf(kennzeichen: string): RecordType {
  return kennzeichen === 'Filiale' ? 'branch' : 'bank';
}

function toRecord(fields: Record<string, string>): RegistryRecord {
  const field = (name: (typeof oenbColumns)[number]): string => fields[name] ?? '';
  const codes: DomesticCode[] = [{ scheme: 'at_blz', value: field('Bankleitzahl') }];
  if (field('Identnummer') !== '')
    codes.push({ scheme: 'at_oenb_ident', value: field('Identnummer') });
  const register = field('Firmenbuchnummer');
  if (register !== '' && register !== NO_REGISTER_NUMBER)
    codes.push({ scheme: 'at_firmenbuch', value: register });
  return makeRecord({
    source_id: oenbSource.source_id,
    record_key: field('Bankleitzahl'),
    record_type: recordTypeOf(field('Kennzeichen')),
    country_code: 'AT',
    legal_name: blankToNull(field('Bankenname')),
    bic: normalizeBic(field('SWIFT-Code')),
    lei: blankToNull(field('LEI'))?.toUpperCase() ?? null,
    domestic_codes: codes,
    address: {
      street: blankToNull(field('Straße')),
      postal_code: blankToNull(field('PLZ')),
      city: blankToNull(field('Ort')),
      region: blankToNull(field('Bundesland')),
    },
    fields,
  });
}
