/**
 * The compact registry tables shipped in data/ (built by scripts/build-embedded-tables.ts): a Bundesbank table
 * (German bank codes with city and check method) and a schwifty table (bank codes, names and BICs of about 45
 * countries). data/embedded-tables.json names each table's date, version, attribution, licence and hash; it is
 * read on every start (small), the tables only when something is to be imported. Reads files (not pure).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AppError } from '../errors.js';
import { parseBundesbankTable } from './importers/bundesbank-table.js';
import { readCompactTable } from './importers/compact-table.js';
import { schwiftyColumns, schwiftySnapshot, type SchwiftyRow } from './importers/schwifty.js';
import type { ParsedSnapshot, SourceInfo } from './record.js';

export const embeddedTablesDir = fileURLToPath(new URL('../../data/', import.meta.url));
export const embeddedManifestPath = `${embeddedTablesDir}embedded-tables.json`;

export interface EmbeddedTable {
  readonly file: string;
  /** The publisher's date for the data the table was derived from. */
  readonly snapshot_date: string;
  /** Last day of validity where the publisher states one (Bundesbank release cycle). */
  readonly valid_until: string | null;
  readonly version: string;
  readonly publisher: string;
  readonly title: string;
  readonly license: string;
  readonly rows: number;
  readonly sha256: string;
  readonly countries: readonly string[];
}

export type EmbeddedManifest = Readonly<Record<'bundesbank-blz' | 'schwifty', EmbeddedTable>>;

export function embeddedManifest(): EmbeddedManifest {
  return JSON.parse(readFileSync(embeddedManifestPath, 'utf8')) as EmbeddedManifest;
}

function tableBytes(table: EmbeddedTable): Uint8Array {
  const bytes = readFileSync(`${embeddedTablesDir}${table.file}`);
  const actual = createHash('sha256').update(bytes).digest('hex');
  // A table that is not the one the manifest describes would be imported under the wrong date and licence.
  if (actual !== table.sha256)
    throw new AppError(
      'internal',
      `data/${table.file} does not match data/embedded-tables.json (sha256 ${actual})`,
    );
  return bytes;
}

function sourceOf(sourceId: string, table: EmbeddedTable): SourceInfo {
  return {
    source_id: sourceId,
    publisher: table.publisher,
    title: table.title,
    license: table.license,
    version: table.version,
  };
}

/** The shipped tables as snapshots, Bundesbank first (it carries cities and check methods), then schwifty. */
export function embeddedTableSnapshots(
  manifest: EmbeddedManifest = embeddedManifest(),
): ParsedSnapshot[] {
  const bundesbank = manifest['bundesbank-blz'];
  const schwifty = manifest.schwifty;
  const schwiftyRows = readCompactTable(
    tableBytes(schwifty),
    'schwifty compact table',
    schwiftyColumns,
  ).map((row) => row.fields as SchwiftyRow);
  return [
    parseBundesbankTable(
      tableBytes(bundesbank),
      bundesbank.snapshot_date,
      sourceOf('bundesbank-blz', bundesbank),
    ),
    schwiftySnapshot(schwiftyRows, schwifty.snapshot_date, sourceOf('schwifty', schwifty)),
  ];
}
