// Goal: importing the real publisher files through the store reproduces the README's diff counts as stored
// registry-change/1.0 events, and a malformed file fails with its line number without touching the registry.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import {
  needsShared,
  readFixture,
  readShared,
  sharedSources,
} from '../../../test/fixtures/registry/paths.js';
import { importFile, importPath } from './import-file.js';
import { lookupIdentifier } from './lookup.js';
import { RegistryStore } from './registry-store.js';
import type { ChangeEvent } from './types.js';

const dirs: string[] = [];
function freshStore(): RegistryStore {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-import-'));
  dirs.push(dir);
  return RegistryStore.openWriter(dir);
}
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function counts(events: readonly ChangeEvent[]): [number, number, number] {
  const of = (type: string) => events.filter((e) => e.change_type === type).length;
  return [of('added'), of('removed'), of('modified')];
}

/** Every event of the source's latest import (the per-source listing is newest first). */
function latestEvents(store: RegistryStore, sourceId: string): ChangeEvent[] {
  const snapshotId = store.source(sourceId)?.current_snapshot_id;
  return store.events({ sourceId, limit: 100_000 }).filter((e) => e.snapshot_id === snapshotId);
}

describe('synthetic fixture files', () => {
  it('imports the ISO-8859-1 Bundesbank fixture with its umlauts and check methods', () => {
    const store = freshStore();
    const summary = importFile(store, {
      sourceId: 'bundesbank-blz',
      bytes: readFixture('bundesbank-synthetic-latin1.txt'),
      fileName: 'synthetic.txt',
      snapshotDate: '2025-01-01',
    });
    assert.equal(summary.row_count, 3);
    const record = lookupIdentifier(store, '99999901', 'de_blz', 25).records.find(
      (r) => r.record_type === 'bank',
    );
    assert.equal(record?.address.city, 'Köln');
    assert.equal(record?.account_checksum_method, '00');
    assert.equal(store.snapshotsOf('bundesbank-blz')[0]?.file_name, 'synthetic.txt');
  });

  it('refuses unknown sources and bad dates with clear errors', () => {
    const store = freshStore();
    assert.throws(
      () => importFile(store, { sourceId: 'nope', bytes: new Uint8Array(), fileName: 'x' }),
      /unknown source "nope"; importable sources: bundesbank-blz/,
    );
    assert.throws(
      () =>
        importFile(store, {
          sourceId: 'bundesbank-blz',
          bytes: readFixture('bundesbank-synthetic-latin1.txt'),
          fileName: 'x',
          snapshotDate: '2025-13-01',
        }),
      /not a YYYY-MM-DD date/,
    );
  });
});

describe(
  'real publisher files (README counts as stored change events)',
  { skip: needsShared },
  () => {
    let store: RegistryStore;
    before(() => {
      store = freshStore();
    });

    it('Bundesbank 2025-06-09 -> 2025-09-08: 15/84/59 by record, 2/3/38 by main bank code', () => {
      importPath(
        store,
        'bundesbank-blz',
        join(sharedSources, 'bundesbank-blz/2025-06-09/bundesbank.txt'),
        { snapshotDate: '2025-06-09' },
      );
      const summary = importPath(
        store,
        'bundesbank-blz',
        join(sharedSources, 'bundesbank-blz/2025-09-08/bundesbank.txt'),
        { snapshotDate: '2025-09-08' },
      );
      assert.deepEqual(summary.changes, { added: 15, removed: 84, modified: 59 });
      const events = latestEvents(store, 'bundesbank-blz');
      assert.deepEqual(counts(events), [15, 84, 59]);
      const main = events.filter((e) => e.record_type === 'bank');
      const blzOf = (e: ChangeEvent) =>
        e.changes.find((c) => c.field === 'blz')?.[e.change_type === 'added' ? 'after' : 'before'];
      assert.deepEqual(
        main
          .filter((e) => e.change_type === 'added')
          .map(blzOf)
          .sort(),
        ['21050055', '86021000'],
      );
      assert.deepEqual(
        main
          .filter((e) => e.change_type === 'removed')
          .map(blzOf)
          .sort(),
        ['50961312', '51230600', '70012400'],
      );
      assert.equal(main.filter((e) => e.change_type === 'modified').length, 38);
      const berlin = main.find(
        (e) => e.change_type === 'modified' && store.record(e.record_id)?.fields.blz === '10050000',
      );
      assert.deepEqual(
        berlin?.changes.find((c) => c.field === 'name'),
        {
          field: 'name',
          before: 'Landesbank Berlin - Berliner Sparkasse',
          after: 'BSK 1818 - Berliner Sparkasse',
        },
      );
      assert.ok(
        events.every((e) => e.changes.every((c) => c.field !== 'aenderungskennzeichen')),
        'the release flag is not a change',
      );
    });

    it('an older Bundesbank file is refused and the ISO-8859-1 original imports into a fresh registry', () => {
      assert.throws(
        () =>
          importPath(
            store,
            'bundesbank-blz',
            join(sharedSources, 'bundesbank-blz/2015-09-07-original-iso-8859-1/bundesbank.txt'),
            { snapshotDate: '2015-09-07' },
          ),
        AppError,
      );
      const fresh = freshStore();
      const summary = importPath(
        fresh,
        'bundesbank-blz',
        join(sharedSources, 'bundesbank-blz/2015-09-07-original-iso-8859-1/bundesbank.txt'),
        { snapshotDate: '2015-09-07' },
      );
      assert.equal(summary.row_count, 18_424);
    });

    it('a truncated line fails with its line number and leaves the previous snapshot untouched', () => {
      const identity = store.identity();
      const current = store.source('bundesbank-blz')?.current_snapshot_id;
      const text = new TextDecoder().decode(readShared('bundesbank-blz/2025-09-08/bundesbank.txt'));
      const lines = text.split('\r\n');
      lines[41] = (lines[41] ?? '').slice(0, 100);
      const broken = new TextEncoder().encode(lines.join('\r\n'));
      assert.throws(
        () =>
          importFile(store, {
            sourceId: 'bundesbank-blz',
            bytes: broken,
            fileName: 'broken.txt',
            snapshotDate: '2025-12-08',
          }),
        /line 42/,
      );
      assert.deepEqual(store.identity(), identity);
      assert.equal(store.source('bundesbank-blz')?.current_snapshot_id, current);
    });

    it('OeNB 15.09 -> 22.09.2025: 17 modified, the 36316 merger moves LEI and BIC', () => {
      importPath(
        store,
        'oenb-sepa',
        join(sharedSources, 'oenb-sepa-verzeichnis/2025-09-15/at.csv'),
      );
      importPath(
        store,
        'oenb-sepa',
        join(sharedSources, 'oenb-sepa-verzeichnis/2025-09-22/at.csv'),
      );
      const events = latestEvents(store, 'oenb-sepa');
      assert.deepEqual(counts(events), [0, 0, 17]);
      const merger = events.find((e) => e.record_key === '36316');
      assert.deepEqual(
        merger?.changes.find((c) => c.field === 'LEI'),
        { field: 'LEI', before: '5299001HH0JTA44PAA35', after: '5299007ST2V666DOLE22' },
      );
      assert.equal(
        lookupIdentifier(store, '5299007ST2V666DOLE22', undefined, 25).records.some(
          (r) => r.record_key === '36316',
        ),
        true,
      );
    });

    it('SIX 2025-09-29 -> 2025-10-06: 2 removed, 5 modified, "Gültig seit" ignored', () => {
      importPath(
        store,
        'six-bankenstamm',
        join(sharedSources, 'six-bankenstamm/2025-09-29/ch.xls'),
      );
      importPath(
        store,
        'six-bankenstamm',
        join(sharedSources, 'six-bankenstamm/2025-10-06/ch.xlsx'),
      );
      assert.deepEqual(counts(latestEvents(store, 'six-bankenstamm')), [0, 2, 5]);
    });

    it('NBB 2019 -> 2025: 27 added, 35 removed, 45 modified', () => {
      importPath(
        store,
        'nbb-bank-codes',
        join(sharedSources, 'nbb-bank-codes/2019-07-03/nbb.xlsx'),
      );
      importPath(
        store,
        'nbb-bank-codes',
        join(sharedSources, 'nbb-bank-codes/2025-08-04/nbb.xlsx'),
      );
      assert.deepEqual(counts(latestEvents(store, 'nbb-bank-codes')), [27, 35, 45]);
    });

    it('FedACH and Fedwire 2016 -> 2018 by routing number', () => {
      importPath(store, 'fedach', join(sharedSources, 'fedach/2016-02-03/FedACHdir.txt'));
      importPath(store, 'fedach', join(sharedSources, 'fedach/2018-12-04/FedACHdir.txt'));
      assert.deepEqual(counts(latestEvents(store, 'fedach')), [104, 1_154, 3_397]);
      importPath(store, 'fedwire', join(sharedSources, 'fedwire/2016-02-04/fpddir.txt'));
      importPath(store, 'fedwire', join(sharedSources, 'fedwire/2018-12-03/fpddir.txt'));
      assert.deepEqual(counts(latestEvents(store, 'fedwire')), [202, 836, 1_231]);
    });

    it('GLEIF: the 2018 concatenated file, then the 2024 delta publication upserts without removing', () => {
      importPath(
        store,
        'gleif-lei',
        join(sharedSources, 'gleif/20180901-gleif-concatenated-file-lei2-Top10.xml'),
      );
      const delta = importPath(
        store,
        'gleif-lei',
        join(sharedSources, 'gleif/20240505-0000-gleif-goldencopy-lei2-intra-day.json'),
        { snapshotDate: '2024-05-05', delta: true },
      );
      assert.equal(delta.changes.removed, 0);
      assert.equal(delta.row_count, 10 + delta.changes.added);
      assert.equal(store.sources().length, 7);
    });
  },
);
