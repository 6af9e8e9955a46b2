// Goal: the source table is the one place a registry source is declared. Every entry is complete (licence,
// publisher, parser, date rule, key rule), every entry is used (its parser reads a real file of its source, the
// CLI's help names it, sync knows its address or the variable to set), and every importer's SourceInfo has an
// entry: an importer added without one fails here.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { needsShared, readFixture, readShared } from '../../../test/fixtures/registry/paths.js';
import { parseSourceFile } from './import-file.js';
import { keysAsStored } from './key-rules.js';
import { registrySources, requireSource, sourceIds } from './sources.js';
import { envNameOf, syncUrls } from './sync.js';

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, '..', '..', 'cli.ts');

/** One file of each source as its publisher ships it (schwifty's package data carries no date). */
const samples: Readonly<Record<string, () => { bytes: Uint8Array; snapshotDate?: string }>> = {
  'bundesbank-blz': () => ({
    bytes: readShared('bundesbank-blz/2025-09-08/bundesbank.txt'),
    snapshotDate: '2025-09-08',
  }),
  'oenb-sepa': () => ({ bytes: readShared('oenb-sepa-verzeichnis/2025-09-15/at.csv') }),
  'six-bankenstamm': () => ({ bytes: readShared('six-bankenstamm/2025-09-29/ch.xls') }),
  'nbb-bank-codes': () => ({ bytes: readShared('nbb-bank-codes/2025-08-04/nbb.xlsx') }),
  'gleif-lei': () => ({
    bytes: readShared('gleif/20180901-gleif-concatenated-file-lei2-Top10.xml'),
  }),
  'gleif-rr': () => ({ bytes: readFixture('gleif-rr-synthetic.xml') }),
  fedach: () => ({ bytes: readShared('fedach/2016-02-03/FedACHdir.txt') }),
  fedwire: () => ({ bytes: readShared('fedwire/2016-02-04/fpddir.txt') }),
  schwifty: () => ({
    bytes: readShared('schwifty-bank-registry/generated_ee.json'),
    snapshotDate: '2025-01-01',
  }),
};

const run = promisify(execFile);

async function helpOf(...command: string[]): Promise<string> {
  return (await run(process.execPath, ['--import', 'tsx', cli, ...command, '--help'])).stdout;
}

describe('the registry source table', () => {
  it('holds each source once, with its licence, publisher, title and date rule', () => {
    assert.equal(new Set(sourceIds).size, registrySources.length);
    assert.ok(registrySources.length >= 9, 'the nine publisher sources at least');
    for (const { info, parse, recordKey, dateFrom, fileNameDate } of registrySources) {
      assert.match(info.source_id, /^[a-z][a-z0-9-]*$/, info.source_id);
      for (const text of [info.license, info.publisher, info.title, dateFrom])
        assert.ok(text.trim().length > 0, `${info.source_id}: an empty field`);
      assert.equal(typeof parse, 'function');
      assert.equal(typeof recordKey, 'function');
      // A file-name rule captures year, month and day.
      if (fileNameDate !== null)
        assert.equal(new RegExp(`${fileNameDate.source}|`).exec('')?.length, 4);
    }
  });

  it('gives the two sources whose people use other keys their own key rule', () => {
    assert.notEqual(requireSource('six-bankenstamm').recordKey, keysAsStored);
    assert.notEqual(requireSource('nbb-bank-codes').recordKey, keysAsStored);
    assert.throws(() => requireSource('nowhere'), /importable sources: bundesbank-blz, /);
  });

  it("parses a real file of each source with the entry's parser", { skip: needsShared }, () => {
    assert.deepEqual(Object.keys(samples).sort(), [...sourceIds].sort());
    for (const sourceId of sourceIds) {
      const { bytes, snapshotDate } = samples[sourceId]!();
      const parsed = parseSourceFile(sourceId, bytes, snapshotDate);
      assert.equal(parsed.source_id, sourceId);
      assert.equal(parsed.source.license, requireSource(sourceId).info.license);
      assert.ok(parsed.records.length > 0, `${sourceId}: records`);
      assert.ok(
        parsed.records.every((record) => record.source_id === sourceId),
        sourceId,
      );
    }
  });

  it('has an entry for every SourceInfo an importer exports', async () => {
    const importers = join(here, '..', 'importers');
    const declared = new Set<string>();
    for (const file of readdirSync(importers).filter((name) => /^[a-z-]+\.ts$/.test(name))) {
      const exported: Record<string, unknown> = await import(
        pathToFileURL(join(importers, file)).href
      );
      for (const value of Object.values(exported)) {
        const info = value as { source_id?: unknown; license?: unknown } | null;
        if (typeof info?.source_id === 'string' && typeof info.license === 'string')
          declared.add(info.source_id);
      }
    }
    assert.deepEqual([...declared].sort(), [...sourceIds].sort());
  });

  it('is what the CLI lists: import and sync help name every source, its licence and address', async () => {
    const [importHelp, syncHelp] = await Promise.all([
      helpOf('registry', 'import'),
      helpOf('registry', 'sync'),
    ]);
    const flat = (text: string) => text.replace(/\s+/g, ' ');
    const defaults = syncUrls({}, []);
    for (const { info, syncUrl } of registrySources) {
      assert.ok(flat(importHelp).includes(`${info.source_id}: ${info.publisher}`), info.source_id);
      assert.ok(flat(importHelp).includes(`licence: ${info.license}`), info.source_id);
      const address = syncUrl ?? envNameOf(info.source_id);
      assert.ok(flat(syncHelp).includes(`${info.source_id}: `), info.source_id);
      assert.ok(flat(syncHelp).includes(address), address);
      assert.equal(defaults.get(info.source_id), syncUrl ?? undefined);
    }
  });
});
