/**
 * FedACH participant directory (FedACHdir.txt, 155 characters + CRLF, or the official JSON). The file has
 * no header date: by default the snapshot date is the latest change date it contains.
 */
import type { ParsedSnapshot, RegistryRecord, SourceInfo } from '../record.js';
import { blankToNull, makeRecord, maxIso } from './common.js';
import { readDirectory, type DirectoryLayout } from './fed-directory.js';
import { fieldTable } from './fixed-width.js';

const KIND = 'FedACH directory';
const LINE_WIDTH = 155;
const NO_NEW_ROUTING_NUMBER = '000000000';
/** Record type 2: "send to the New Routing Number" - the only case where the directory names a successor. */
const RECORD_TYPE_REDIRECT = '2';
/**
 * MMDDYY change dates carry a 2-digit year. Routing-directory history starts well after 1970, so years
 * 70-99 are 19xx and 00-69 are 20xx.
 */
const CENTURY_PIVOT = 70;

export const fedachSource: SourceInfo = {
  source_id: 'fedach',
  publisher: 'Federal Reserve Banks',
  title: 'E-Payments Routing Directory: FedACH participants',
  license:
    'Federal Reserve Banks E-Payments Routing Directory terms (may not be sold, relicensed or used for commercial gain)',
  version: null,
};

export const fedachTable = fieldTable(KIND, LINE_WIDTH, [
  { name: 'routingNumber', position: 1, width: 9, example: '011000015' },
  { name: 'officeCode', position: 10, width: 1, example: 'O' },
  { name: 'servicingFRBNumber', position: 11, width: 9, example: '011000015' },
  { name: 'recordTypeCode', position: 20, width: 1, example: '0' },
  { name: 'changeDate', position: 21, width: 6, example: '122415' },
  { name: 'newRoutingNumber', position: 27, width: 9, example: '000000000' },
  { name: 'customerName', position: 36, width: 36, example: 'FEDERAL RESERVE BANK' },
  { name: 'customerAddress', position: 72, width: 36, example: '1000 PEACHTREE ST N.E.' },
  { name: 'customerCity', position: 108, width: 20, example: 'ATLANTA' },
  { name: 'customerState', position: 128, width: 2, example: 'GA' },
  { name: 'customerZip', position: 130, width: 5, example: '30309' },
  { name: 'customerZipExt', position: 135, width: 4, example: '4470' },
  { name: 'customerAreaCode', position: 139, width: 3, example: '877' },
  { name: 'customerPhonePrefix', position: 142, width: 3, example: '372' },
  { name: 'customerPhoneSuffix', position: 145, width: 4, example: '2457' },
  { name: 'institutionStatusCode', position: 149, width: 1, example: '1' },
  { name: 'dataViewCode', position: 150, width: 1, example: '1' },
  { name: 'filler', position: 151, width: 5, example: '' },
]);

const layout: DirectoryLayout = {
  kind: KIND,
  table: fedachTable,
  fillers: ['filler'],
  jsonKey: 'fedACHParticipants',
  jsonAliases: { institutionStatusCode: ['statusCode'] },
};

export interface FedachOptions {
  /** Overrides the latest change date found in the file. */
  readonly snapshotDate?: string;
}

export function parseFedach(bytes: Uint8Array, options: FedachOptions = {}): ParsedSnapshot {
  const { rows } = readDirectory(bytes, layout);
  const records = rows.map((row) => toRecord(row.fields));
  return {
    source_id: fedachSource.source_id,
    source: fedachSource,
    snapshot_date:
      options.snapshotDate ??
      maxIso(rows.map((row) => isoFromMonthDayYear(row.fields.changeDate ?? ''))),
    records,
    row_count: records.length,
    ignored_fields: [],
  };
}

/** 'MMDDYY' -> 'YYYY-MM-DD' (see CENTURY_PIVOT), or null. */
export function isoFromMonthDayYear(text: string): string | null {
  const match = /^(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (!match) return null;
  const [, month, day, year] = match;
  const century = Number(year) >= CENTURY_PIVOT ? '19' : '20';
  const iso = `${century}${year}-${month}-${day}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso ? iso : null;
}

function toRecord(fields: Record<string, string>): RegistryRecord {
  const field = (name: string): string => fields[name] ?? '';
  const next = field('newRoutingNumber');
  const redirected =
    field('recordTypeCode') === RECORD_TYPE_REDIRECT &&
    next !== NO_NEW_ROUTING_NUMBER &&
    next !== '';
  return makeRecord({
    source_id: fedachSource.source_id,
    record_key: field('routingNumber'),
    record_type: 'routing_number',
    country_code: 'US',
    legal_name: blankToNull(field('customerName')),
    domestic_codes: [{ scheme: 'us_aba', value: field('routingNumber') }],
    address: {
      street: blankToNull(field('customerAddress')),
      postal_code: blankToNull(
        [field('customerZip'), field('customerZipExt')].filter((part) => part !== '').join('-'),
      ),
      city: blankToNull(field('customerCity')),
      region: blankToNull(field('customerState')),
    },
    successor: redirected ? { scheme: 'us_aba', value: next, effective_at: null } : null,
    fields,
  });
}
