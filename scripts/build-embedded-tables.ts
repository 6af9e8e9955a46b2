/**
 * Builds the compact registry tables in data/ that the embedded default imports on first start:
 *   data/bundesbank-blz.tsv.gz   derived from one release of the Bundesbank Bankleitzahlendatei
 *   data/schwifty-banks.tsv.gz   derived from schwifty's bank_registry/*.json (MIT)
 *   data/embedded-tables.json    date, version, attribution, licence, row count and SHA-256 of each
 * Run: node --import tsx scripts/build-embedded-tables.ts --bundesbank <blz file> --bundesbank-date YYYY-MM-DD
 *        --bundesbank-valid-until YYYY-MM-DD --schwifty <bank_registry dir> --schwifty-date YYYY-MM-DD
 *        --schwifty-version <release or commit>
 * Only the columns the service uses are written (see src/registry/importers/bundesbank-table.ts and schwifty.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBundesbankTable, buildSchwiftyTable } from '../src/registry/embedded-tables-build.js';
import {
  embeddedManifestPath,
  embeddedTablesDir,
  type EmbeddedManifest,
} from '../src/registry/embedded-tables.js';

const { values } = parseArgs({
  options: {
    bundesbank: { type: 'string' },
    'bundesbank-date': { type: 'string' },
    'bundesbank-valid-until': { type: 'string' },
    schwifty: { type: 'string' },
    'schwifty-date': { type: 'string' },
    'schwifty-version': { type: 'string' },
  },
});

function required(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new Error(`--${name} is required`);
  return value;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const bundesbank = buildBundesbankTable(readFileSync(required('bundesbank')));
const schwifty = buildSchwiftyTable(required('schwifty'));
writeFileSync(join(embeddedTablesDir, 'bundesbank-blz.tsv.gz'), bundesbank.bytes);
writeFileSync(join(embeddedTablesDir, 'schwifty-banks.tsv.gz'), schwifty.bytes);
const manifest: EmbeddedManifest = {
  'bundesbank-blz': {
    file: 'bundesbank-blz.tsv.gz',
    snapshot_date: required('bundesbank-date'),
    valid_until: required('bundesbank-valid-until'),
    version: required('bundesbank-date'),
    publisher: 'Deutsche Bundesbank',
    title: 'Bankleitzahlendatei (compact table derived by ibanqa)',
    license:
      "Source: Deutsche Bundesbank. Free, non-binding publication under the Bundesbank's usage notes (cite the source; no warranty); not an open licence",
    rows: bundesbank.rows,
    sha256: sha256(bundesbank.bytes),
    countries: ['DE'],
  },
  schwifty: {
    file: 'schwifty-banks.tsv.gz',
    snapshot_date: required('schwifty-date'),
    valid_until: null,
    version: required('schwifty-version'),
    publisher:
      'schwifty bank registry (Martin Domke; data from the central banks and associations it names)',
    title: 'schwifty bank_registry (compact table derived by ibanqa)',
    license:
      "MIT, Copyright (c) 2021 Martin Domke (notice in data/LICENSE-schwifty); the underlying data keep their publishers' terms",
    rows: schwifty.rows,
    sha256: sha256(schwifty.bytes),
    countries: [...schwifty.countries],
  },
};
writeFileSync(embeddedManifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
process.stdout.write(
  `bundesbank-blz: ${bundesbank.rows} rows, ${bundesbank.bytes.length} bytes; schwifty: ${schwifty.rows} rows in ${schwifty.countries.length} countries, ${schwifty.bytes.length} bytes\n`,
);
