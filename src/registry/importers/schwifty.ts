/**
 * schwifty's bank registry (github.com/mdomke/schwifty, schwifty/bank_registry/*.json, MIT, Copyright (c) 2021
 * Martin Domke): per-country bank codes with name, short name, BIC and, for Germany, the Bundesbank check
 * method. Reads schwifty's own files (format v1: a list of entries; v2: {"entries", "expand_from": "bank_codes"})
 * and the compact table derived from them that the project ships (data/schwifty-banks.tsv.gz).
 *
 * One record per country and bank code, keyed "CC:code": schwifty lists a code once per office, so the entry
 * marked primary (main office) speaks, else the first. Placeholder rows ("VRIJ", "Onbeschikbaar" in the Belgian
 * table) and entries without a bank code are not banks and are left out. The files carry no date.
 */
import type { DomesticCode, ParsedSnapshot, RegistryRecord, SourceInfo } from '../record.js';
import {
  blankToNull,
  invalidInput,
  invalidRecord,
  makeRecord,
  normalizeBic,
  parseJson,
} from './common.js';
import { isGzip, readCompactTable, tableText } from './compact-table.js';
import { namesNoBank } from './placeholders.js';

const KIND = 'schwifty bank registry';

export const schwiftySource: SourceInfo = {
  source_id: 'schwifty',
  publisher:
    'schwifty bank registry (Martin Domke; data from the central banks and associations it names)',
  title: 'schwifty bank_registry',
  license:
    "MIT (Copyright (c) 2021 Martin Domke); the underlying data keep their publishers' terms",
  version: null,
};

/** Columns of the compact table, in order. */
export const schwiftyColumns = [
  'country_code',
  'bank_code',
  'name',
  'short_name',
  'bic',
  'primary',
  'checksum_algo',
] as const;
export type SchwiftyRow = Readonly<Record<(typeof schwiftyColumns)[number], string>>;

/** Scheme names the registry already uses for these countries' IBAN bank codes; others get "<cc>_bank_code". */
const SCHEMES: Readonly<Record<string, string>> = {
  AT: 'at_blz',
  BE: 'be_protocol',
  CH: 'ch_iid',
  DE: 'de_blz',
  ES: 'es_entidad',
  FR: 'fr_code_banque',
  LU: 'lu_bank_code',
  NL: 'nl_bank_code',
};

export function schwiftySchemeOf(countryCode: string): string {
  return SCHEMES[countryCode] ?? `${countryCode.toLowerCase()}_bank_code`;
}

interface Entry {
  readonly bank_code?: unknown;
  readonly bank_codes?: unknown;
  readonly name?: unknown;
  readonly short_name?: unknown;
  readonly bic?: unknown;
  readonly primary?: unknown;
  readonly country_code?: unknown;
  readonly checksum_algo?: unknown;
}

/** Trimmed, with inner runs of whitespace (schwifty has a few names with a line break) as one space. */
const text = (value: unknown): string =>
  typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';

/** Entries of one schwifty JSON file (v1 list or v2 object), expanded to one row per bank code. */
export function schwiftyRowsOfJson(json: unknown, kind = KIND): SchwiftyRow[] {
  const v2 = typeof json === 'object' && json !== null && !Array.isArray(json);
  const entries = v2 ? (json as { entries?: unknown }).entries : json;
  if (!Array.isArray(entries))
    throw invalidInput(
      kind,
      1,
      v2 ? 'v2 file without an "entries" list' : 'neither a list of entries nor {"entries": [...]}',
    );
  const rows: SchwiftyRow[] = [];
  entries.forEach((raw: unknown, index) => {
    if (typeof raw !== 'object' || raw === null)
      throw invalidRecord(kind, index + 1, 'entry is not an object');
    const entry = raw as Entry;
    const country = text(entry.country_code).toUpperCase();
    if (!/^[A-Z]{2}$/.test(country))
      throw invalidRecord(
        kind,
        index + 1,
        `country_code "${text(entry.country_code)}" is not two letters`,
      );
    const codes = v2 ? entry.bank_codes : [entry.bank_code];
    if (!Array.isArray(codes))
      throw invalidRecord(kind, index + 1, 'v2 entry without a "bank_codes" list');
    for (const code of codes) {
      rows.push({
        country_code: country,
        bank_code: text(code),
        name: text(entry.name),
        short_name: text(entry.short_name),
        bic: text(entry.bic),
        primary: entry.primary === true ? '1' : '0',
        checksum_algo: text(entry.checksum_algo),
      });
    }
  });
  return rows;
}

/**
 * One row per (country, bank code) in first-seen order: the primary entry wins over others of the same code.
 * Rows without a bank code or naming no bank (placeholders) are dropped.
 */
export function compactSchwiftyRows(rows: readonly SchwiftyRow[]): SchwiftyRow[] {
  const chosen = new Map<string, SchwiftyRow>();
  for (const row of rows) {
    if (row.bank_code === '' || namesNoBank([row.name, row.short_name])) continue;
    const key = `${row.country_code}:${row.bank_code}`;
    const seen = chosen.get(key);
    if (seen === undefined || (seen.primary !== '1' && row.primary === '1')) chosen.set(key, row);
  }
  return [...chosen.values()];
}

export function schwiftyRecord(row: SchwiftyRow): RegistryRecord {
  const fields: Record<string, string> = {};
  for (const column of schwiftyColumns) if (row[column] !== '') fields[column] = row[column];
  const code: DomesticCode = { scheme: schwiftySchemeOf(row.country_code), value: row.bank_code };
  return makeRecord({
    source_id: schwiftySource.source_id,
    record_key: `${row.country_code}:${row.bank_code}`,
    record_type: 'bank',
    country_code: row.country_code,
    legal_name: blankToNull(row.name),
    short_name: blankToNull(row.short_name),
    bic: normalizeBic(row.bic),
    domestic_codes: [code],
    account_checksum_method: blankToNull(row.checksum_algo),
    fields,
  });
}

export function schwiftySnapshot(
  rows: readonly SchwiftyRow[],
  snapshotDate: string | null,
  source: SourceInfo = schwiftySource,
): ParsedSnapshot {
  const records = compactSchwiftyRows(rows).map(schwiftyRecord);
  return {
    source_id: source.source_id,
    source,
    snapshot_date: snapshotDate,
    records,
    row_count: records.length,
    ignored_fields: [],
  };
}

/** A schwifty JSON file (one country) or the compact table (every country), plain or gzip-compressed. */
export function parseSchwifty(
  bytes: Uint8Array,
  options: { snapshotDate?: string } = {},
): ParsedSnapshot {
  const body = tableText(bytes, KIND);
  const first = body.trimStart()[0];
  const rows =
    first === '{' || first === '['
      ? schwiftyRowsOfJson(parseJson(body, KIND))
      : readCompactTable(
          isGzip(bytes) ? bytes : new TextEncoder().encode(body),
          KIND,
          schwiftyColumns,
        ).map((row) => row.fields as SchwiftyRow);
  if (rows.length === 0) throw invalidInput(KIND, 2, 'no bank entries');
  return schwiftySnapshot(rows, options.snapshotDate ?? null);
}
