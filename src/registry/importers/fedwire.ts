/**
 * Fedwire Funds participant directory (fpddir.txt, 101 characters + CRLF, or the official JSON). By default
 * the snapshot date is the latest revision date in the file.
 */
import type { ParsedSnapshot, RegistryRecord, SourceInfo } from '../record.js';
import { blankToNull, isoFromCompact, makeRecord, maxIso } from './common.js';
import { readDirectory, type DirectoryLayout } from './fed-directory.js';
import { fieldTable } from './fixed-width.js';

const KIND = 'Fedwire directory';
const LINE_WIDTH = 101;

export const fedwireSource: SourceInfo = {
  source_id: 'fedwire',
  publisher: 'Federal Reserve Banks',
  title: 'E-Payments Routing Directory: Fedwire Funds participants',
  license:
    'Federal Reserve Banks E-Payments Routing Directory terms (may not be sold, relicensed or used for commercial gain)',
  version: null,
};

export const fedwireTable = fieldTable(KIND, LINE_WIDTH, [
  { name: 'routingNumber', position: 1, width: 9, example: '011000015' },
  { name: 'telegraphicName', position: 10, width: 18, example: 'FRB-BOS' },
  { name: 'customerName', position: 28, width: 36, example: 'FEDERAL RESERVE BANK OF BOSTON' },
  { name: 'customerState', position: 64, width: 2, example: 'MA' },
  { name: 'customerCity', position: 66, width: 25, example: 'BOSTON' },
  { name: 'fundsEligibility', position: 91, width: 1, example: 'Y' },
  { name: 'fundsSettlementOnlyStatus', position: 92, width: 1, example: '' },
  { name: 'securitiesEligibility', position: 93, width: 1, example: 'Y' },
  { name: 'changeDate', position: 94, width: 8, example: '20040910' },
]);

const layout: DirectoryLayout = {
  kind: KIND,
  table: fedwireTable,
  fillers: [],
  jsonKey: 'fedwireParticipants',
};

export interface FedwireOptions {
  /** Overrides the latest revision date found in the file. */
  readonly snapshotDate?: string;
}

export function parseFedwire(bytes: Uint8Array, options: FedwireOptions = {}): ParsedSnapshot {
  const { rows } = readDirectory(bytes, layout);
  const records = rows.map((row) => toRecord(row.fields));
  return {
    source_id: fedwireSource.source_id,
    source: fedwireSource,
    snapshot_date:
      options.snapshotDate ??
      maxIso(rows.map((row) => isoFromCompact(row.fields.changeDate ?? ''))),
    records,
    row_count: records.length,
    ignored_fields: [],
  };
}

function toRecord(fields: Record<string, string>): RegistryRecord {
  const field = (name: string): string => fields[name] ?? '';
  return makeRecord({
    source_id: fedwireSource.source_id,
    record_key: field('routingNumber'),
    record_type: 'routing_number',
    country_code: 'US',
    legal_name: blankToNull(field('customerName')),
    short_name: blankToNull(field('telegraphicName')),
    domestic_codes: [{ scheme: 'us_aba', value: field('routingNumber') }],
    address: {
      street: null,
      postal_code: null,
      city: blankToNull(field('customerCity')),
      region: blankToNull(field('customerState')),
    },
    fields,
  });
}
