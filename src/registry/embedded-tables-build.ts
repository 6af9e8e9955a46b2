/**
 * How the compact tables in data/ are derived from the publisher files (scripts/build-embedded-tables.ts writes
 * them; the tests rebuild them from ../shared and compare hashes). Only the columns the service uses are kept.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseBundesbank } from './importers/bundesbank.js';
import { bundesbankTableColumns } from './importers/bundesbank-table.js';
import { parseJson } from './importers/common.js';
import { writeCompactTable } from './importers/compact-table.js';
import {
  compactSchwiftyRows,
  schwiftyColumns,
  schwiftyRowsOfJson,
  type SchwiftyRow,
} from './importers/schwifty.js';

export interface BuiltTable {
  readonly bytes: Uint8Array;
  readonly rows: number;
  readonly countries: readonly string[];
}

/** Every record of one Bankleitzahlendatei release (main and branch records), in file order. */
export function buildBundesbankTable(file: Uint8Array): BuiltTable {
  const parsed = parseBundesbank(file);
  const rows = parsed.records.map((record) =>
    bundesbankTableColumns.map((column) => record.fields[column] ?? ''),
  );
  return {
    bytes: writeCompactTable(bundesbankTableColumns, rows),
    rows: rows.length,
    countries: ['DE'],
  };
}

/**
 * One row per country and bank code over every schwifty file: generated_* (built by schwifty's scripts from
 * official files) before manual_* (curated), primary entries over others, placeholders dropped.
 */
export function buildSchwiftyTable(dir: string): BuiltTable {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort(
      (a, b) =>
        Number(a.startsWith('manual_')) - Number(b.startsWith('manual_')) || (a < b ? -1 : 1),
    );
  const all: SchwiftyRow[] = files.flatMap((name) =>
    schwiftyRowsOfJson(parseJson(readFileSync(join(dir, name), 'utf8'), name), name),
  );
  const rows = compactSchwiftyRows(all);
  const table = rows.map((row) => schwiftyColumns.map((column) => row[column]));
  return {
    bytes: writeCompactTable(schwiftyColumns, table),
    rows: rows.length,
    countries: [...new Set(rows.map((row) => row.country_code))].sort(),
  };
}
