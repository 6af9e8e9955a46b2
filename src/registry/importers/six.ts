/**
 * SIX Interbank Clearing bank master in the legacy "Bankenstamm" layout (bcbankenstamm_d.xls, also read as
 * .xlsx): one sheet, a header row and 23 columns, one row per IID and Filial-ID.
 *
 * "Gültig seit" holds the download date on every live row, so it is an ignored field and, by default, the
 * snapshot date (its maximum). Only rows with "IID neu" carry the real date of the change.
 */
import type {
  DomesticCode,
  ParentLink,
  ParsedSnapshot,
  RecordType,
  RegistryRecord,
  SourceInfo,
} from '../record.js';
import {
  blankToNull,
  invalidInput,
  isoFromCompact,
  KeyRegistry,
  makeRecord,
  maxIso,
  normalizeBic,
} from './common.js';
import { readFirstSheet } from './sheet.js';
import { tableRows, type TableRow } from './table-rows.js';

const KIND = 'SIX Bankenstamm';
const HEADER_ROW_INDEX = 0;
const VALID_SINCE = 'Gültig seit';
/** The bank master covers Switzerland; "Landcode" is only filled for institutions domiciled elsewhere (LI, DE ...). */
const DEFAULT_COUNTRY = 'CH';

export const sixSource: SourceInfo = {
  source_id: 'six-bankenstamm',
  publisher: 'SIX Interbank Clearing',
  title: 'Bankenstamm (bcbankenstamm_d.xls)',
  license: 'SIX terms of use (free of charge for payment processing); not an open licence',
  version: null,
};

export const sixColumns = [
  'Gruppe',
  'IID',
  'Filial-ID',
  'IID neu',
  'SIC-IID',
  'Hauptsitz',
  'IID-Art',
  VALID_SINCE,
  'SIC',
  'euroSIC',
  'Sprache',
  'Kurzbez.',
  'Name Bank/Institut',
  'Domizil',
  'Postadresse',
  'PLZ',
  'Ort',
  'Telefon',
  'Fax',
  'Vorwahl',
  'Landcode',
  'Postkonto',
  'BIC',
] as const;

const RECORD_TYPES: Readonly<Record<string, RecordType>> = {
  '1': 'bank',
  '2': 'branch',
  '3': 'branch',
};

export interface SixOptions {
  /** Overrides the date read from "Gültig seit" (the download date on live rows). */
  readonly snapshotDate?: string;
}

export function parseSix(bytes: Uint8Array, options: SixOptions = {}): ParsedSnapshot {
  const rows = tableRows(KIND, readFirstSheet(bytes, KIND).rows, HEADER_ROW_INDEX, sixColumns);
  if (rows.length === 0)
    throw invalidInput(KIND, HEADER_ROW_INDEX + 2, 'no data rows after the header');
  const keys = new KeyRegistry(KIND);
  const records = rows.map((row) => {
    checkRow(row);
    const record = toRecord(row.fields);
    keys.claim(record.record_key, row.line);
    return record;
  });
  const liveDates = rows
    .filter((row) => row.fields['IID neu'] === '')
    .map((row) => isoFromCompact(row.fields[VALID_SINCE] ?? ''));
  return {
    source_id: sixSource.source_id,
    source: sixSource,
    snapshot_date: options.snapshotDate ?? maxIso(liveDates),
    records,
    row_count: records.length,
    ignored_fields: [VALID_SINCE],
  };
}

function checkRow(row: TableRow): void {
  const { fields, line } = row;
  if (!/^\d{1,5}$/.test(fields.IID ?? ''))
    throw invalidInput(KIND, line, `IID "${fields.IID}" is not 1-5 digits`);
  if (!/^\d{4}$/.test(fields['Filial-ID'] ?? ''))
    throw invalidInput(KIND, line, `Filial-ID "${fields['Filial-ID']}" is not 4 digits`);
  if (RECORD_TYPES[fields['IID-Art'] ?? ''] === undefined)
    throw invalidInput(KIND, line, `IID-Art "${fields['IID-Art']}" is not 1, 2 or 3`);
  if (isoFromCompact(fields[VALID_SINCE] ?? '') === null)
    throw invalidInput(KIND, line, `${VALID_SINCE} "${fields[VALID_SINCE]}" is not YYYYMMDD`);
}

function toRecord(fields: Record<string, string>): RegistryRecord {
  const field = (name: (typeof sixColumns)[number]): string => fields[name] ?? '';
  const iid = field('IID');
  const codes: DomesticCode[] = [{ scheme: 'ch_iid', value: iid }];
  if (field('SIC-IID') !== '') codes.push({ scheme: 'ch_sic_iid', value: field('SIC-IID') });
  const headOffice = field('Hauptsitz');
  const parents: ParentLink[] =
    headOffice !== '' && headOffice !== iid
      ? [
          {
            relationship_type: 'head_office',
            scheme: 'ch_iid',
            value: headOffice,
            status: null,
            start_date: null,
          },
        ]
      : [];
  const successorIid = field('IID neu');
  return makeRecord({
    source_id: sixSource.source_id,
    record_key: `${iid}-${field('Filial-ID')}`,
    record_type: RECORD_TYPES[field('IID-Art')] ?? 'branch',
    country_code: field('Landcode') === '' ? DEFAULT_COUNTRY : field('Landcode'),
    legal_name: blankToNull(field('Name Bank/Institut')),
    short_name: blankToNull(field('Kurzbez.')),
    bic: normalizeBic(field('BIC')),
    domestic_codes: codes,
    address: {
      street: blankToNull(field('Domizil')),
      postal_code: blankToNull(field('PLZ')),
      city: blankToNull(field('Ort')),
      region: null,
    },
    parents,
    successor:
      successorIid === ''
        ? null
        : {
            scheme: 'ch_iid',
            value: successorIid,
            effective_at: isoFromCompact(field(VALID_SINCE)),
          },
    fields,
  });
}
