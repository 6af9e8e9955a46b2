/**
 * National Bank of Belgium bank-code list (current_codes.xlsx): cell A1 holds "Version DD/MM/YYYY", row 2
 * the header, then one row per 3-digit protocol-code range with its BIC written in groups ("GEBA BE BB").
 */
import type { ParsedSnapshot, RegistryRecord, SourceInfo } from '../record.js';
import {
  blankToNull,
  invalidInput,
  isoFromDayMonthYear,
  KeyRegistry,
  makeRecord,
  normalizeBic,
} from './common.js';
import { isPlaceholderName, namesNoBank } from './placeholders.js';
import { readFirstSheet } from './sheet.js';
import { tableRows, type TableRow } from './table-rows.js';

const KIND = 'NBB bank-code list';
const HEADER_ROW_INDEX = 1;
const VERSION_PATTERN = /^version\s+(\d{2}\/\d{2}\/\d{4})\s*$/i;
const PROTOCOL_CODE = /^\d{3}$/;

export const nbbSource: SourceInfo = {
  source_id: 'nbb-bank-codes',
  publisher: 'National Bank of Belgium',
  title: 'Belgian bank codes (current_codes.xlsx)',
  license: 'NBB public list under NBB terms; not an open licence',
  version: null,
};

export const nbbColumns = [
  'From',
  'To',
  'Biccode',
  'Name Dutch',
  'Name French',
  'Name German',
  'Name English',
] as const;

export function parseNbb(bytes: Uint8Array): ParsedSnapshot {
  const sheet = readFirstSheet(bytes, KIND);
  const version = (sheet.rows[0]?.[0] ?? '').trim();
  const match = VERSION_PATTERN.exec(version);
  const snapshotDate = match?.[1] === undefined ? null : isoFromDayMonthYear(match[1]);
  if (snapshotDate === null)
    throw invalidInput(KIND, 1, `cell A1 "${version}" is not "Version DD/MM/YYYY"`);
  const rows = tableRows(KIND, sheet.rows, HEADER_ROW_INDEX, nbbColumns);
  if (rows.length === 0)
    throw invalidInput(KIND, HEADER_ROW_INDEX + 2, 'no data rows after the header');
  const keys = new KeyRegistry(KIND);
  const records = rows.map((row) => {
    const record = toRecord(row);
    keys.claim(record.record_key, row.line);
    return record;
  });
  return {
    source_id: nbbSource.source_id,
    source: nbbSource,
    snapshot_date: snapshotDate,
    records,
    row_count: records.length,
    ignored_fields: [],
  };
}

function toRecord(row: TableRow): RegistryRecord {
  const field = (name: (typeof nbbColumns)[number]): string => row.fields[name] ?? '';
  const from = field('From');
  const to = field('To');
  if (!PROTOCOL_CODE.test(from) || !PROTOCOL_CODE.test(to) || to < from) {
    throw invalidInput(KIND, row.line, `range "${from}"-"${to}" is not two 3-digit codes in order`);
  }
  const key = `${from}-${to}`;
  if (
    isPlaceholderName(field('Biccode')) ||
    namesNoBank([
      field('Name Dutch'),
      field('Name French'),
      field('Name German'),
      field('Name English'),
    ])
  ) {
    // "VRIJ" / "Onbeschikbaar": a free or withheld range, no bank. Kept (diffs and the time machine see it), unindexed.
    return makeRecord({
      source_id: nbbSource.source_id,
      record_key: key,
      record_type: 'unassigned',
      country_code: 'BE',
      fields: row.fields,
    });
  }
  return makeRecord({
    source_id: nbbSource.source_id,
    record_key: key,
    record_type: 'bank_code_range',
    country_code: 'BE',
    // The list names each bank in up to four languages; the first published one in column order is used.
    legal_name:
      blankToNull(field('Name Dutch')) ??
      blankToNull(field('Name French')) ??
      blankToNull(field('Name German')) ??
      blankToNull(field('Name English')),
    // Placeholders ("nav", "NAP", "VRIJ", "-") are no BIC; they stay visible in fields.Biccode.
    bic: normalizeBic(field('Biccode')),
    domestic_codes: [{ scheme: 'be_protocol_range', value: key }],
    fields: row.fields,
  });
}
