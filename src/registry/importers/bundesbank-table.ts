/**
 * The compact Bundesbank table the project ships (data/bundesbank-blz.tsv.gz), derived from one release of the
 * Bankleitzahlendatei by scripts/build-embedded-tables.ts: per record the bank code, main/branch flag, name,
 * postal code, city, BIC, check method, deletion flag, successor and the record number (the branch key). Short
 * name, PAN and the release flag are left out, so they are ignored fields when a full file follows it.
 */
import type { ParsedSnapshot, SourceInfo } from '../record.js';
import { bundesbankRecord, bundesbankSource } from './bundesbank.js';
import { invalidInput, KeyRegistry } from './common.js';
import { readCompactTable } from './compact-table.js';

const KIND = 'Bundesbank compact table';

export const bundesbankTableColumns = [
  'blz',
  'merkmal',
  'name',
  'plz',
  'ort',
  'bic',
  'pruefzifferberechnungsmethode',
  'bankleitzahlloeschung',
  'nachfolge_blz',
  'datensatznummer',
  'aenderungskennzeichen',
  'pan',
] as const;

/** The full-file column the compact table does not carry, plus the release flag the full importer also ignores. */
export const bundesbankTableIgnored = ['aenderungskennzeichen', 'kurz'] as const;

const PATTERNS: Readonly<Record<string, RegExp>> = {
  blz: /^\d{8}$/,
  merkmal: /^[12]$/,
  bankleitzahlloeschung: /^[01]$/,
  nachfolge_blz: /^\d{8}$/,
  datensatznummer: /^\d{6}$/,
  pruefzifferberechnungsmethode: /^[0-9A-Z]{2}$/,
  aenderungskennzeichen: /^[AMDU]$/,
  pan: /^(\d{5})?$/,
};

export function parseBundesbankTable(
  bytes: Uint8Array,
  snapshotDate: string | null,
  source: SourceInfo = bundesbankSource,
): ParsedSnapshot {
  const keys = new KeyRegistry(KIND);
  const records = readCompactTable(bytes, KIND, bundesbankTableColumns).map(({ line, fields }) => {
    for (const [name, pattern] of Object.entries(PATTERNS)) {
      if (!pattern.test(fields[name] ?? ''))
        throw invalidInput(
          KIND,
          line,
          `field ${name} has unexpected value "${fields[name] ?? ''}"`,
        );
    }
    const record = { ...bundesbankRecord(fields), source_id: source.source_id };
    keys.claim(record.record_key, line);
    return record;
  });
  if (records.length === 0) throw invalidInput(KIND, 2, 'no records');
  return {
    source_id: source.source_id,
    source,
    snapshot_date: snapshotDate,
    records,
    row_count: records.length,
    ignored_fields: [...bundesbankTableIgnored],
  };
}
