// Goal: an import without --snapshot-date keeps the safety rules: the date comes from the file where its format
// (or the publisher's file name) carries one, is required otherwise, an identical file is a no-op by content, and
// a file older than the current snapshot is refused. Real publisher files from ../shared and SYNTHETIC fixtures.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { needsShared, readFixture, readShared } from '../../../test/fixtures/registry/paths.js';
import { dateFromFileName, importFile } from './import-file.js';
import { RegistryStore } from './registry-store.js';

const dirs: string[] = [];
function freshStore(): RegistryStore {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-dates-'));
  dirs.push(dir);
  return RegistryStore.openWriter(dir);
}
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const june = () => readShared('bundesbank-blz/2025-06-09/bundesbank.txt');
const september = () => readShared('bundesbank-blz/2025-09-08/bundesbank.txt');

describe('snapshot dates from publisher file names', () => {
  it('reads the Bundesbank release and GLEIF publication names, nothing else', () => {
    assert.equal(dateFromFileName('bundesbank-blz', 'blz_2015_09_07_txt.txt'), '2015-09-07');
    assert.equal(dateFromFileName('bundesbank-blz', '/tmp/x/BLZ_20120903.txt'), '2012-09-03');
    assert.equal(dateFromFileName('bundesbank-blz', 'blz-aktuell-txt-data.txt'), null);
    assert.equal(dateFromFileName('bundesbank-blz', 'blz_2015_13_07_txt.txt'), null);
    assert.equal(
      dateFromFileName('gleif-lei', '20240505-0000-gleif-goldencopy-lei2-intra-day.json'),
      '2024-05-05',
    );
    assert.equal(dateFromFileName('oenb-sepa', 'blz_2015_09_07_txt.txt'), null);
  });
});

describe('imports without --snapshot-date', { skip: needsShared }, () => {
  it('Bundesbank: refused without a date; the same file again is a no-op; the older release is refused', () => {
    const store = freshStore();
    assert.throws(
      () =>
        importFile(store, {
          sourceId: 'bundesbank-blz',
          bytes: september(),
          fileName: 'bundesbank.txt',
        }),
      /carries no date; pass .*--snapshot-date/,
    );
    assert.equal(store.isEmpty(), true);
    const first = importFile(store, {
      sourceId: 'bundesbank-blz',
      bytes: september(),
      fileName: 'bundesbank.txt',
      snapshotDate: '2025-09-08',
    });
    const again = importFile(store, {
      sourceId: 'bundesbank-blz',
      bytes: september(),
      fileName: 'bundesbank.txt',
    });
    assert.equal(again.unchanged, true);
    assert.deepEqual(again.registry, first.registry, 'fingerprint and version stay');
    assert.equal(store.snapshotsOf('bundesbank-blz').length, 1);
    // The older release: without a date it cannot be placed, with its date it is older: both refused, no events.
    assert.throws(
      () =>
        importFile(store, {
          sourceId: 'bundesbank-blz',
          bytes: june(),
          fileName: 'bundesbank.txt',
        }),
      /carries no date/,
    );
    assert.throws(
      () =>
        importFile(store, {
          sourceId: 'bundesbank-blz',
          bytes: june(),
          fileName: 'bundesbank.txt',
          snapshotDate: '2025-06-09',
        }),
      /before the current snapshot's 2025-09-08/,
    );
    assert.throws(
      () =>
        importFile(store, {
          sourceId: 'bundesbank-blz',
          bytes: june(),
          fileName: 'blz_2025_06_09_txt.txt',
        }),
      /before the current snapshot's 2025-09-08/,
    );
    assert.deepEqual(store.identity(), first.registry);
    assert.equal(store.events({ limit: 10 }).length, 0);
  });

  it('Bundesbank: the release date in a Bundesbank file name dates the import', () => {
    const store = freshStore();
    const summary = importFile(store, {
      sourceId: 'bundesbank-blz',
      bytes: june(),
      fileName: 'blz_2025_06_09_txt.txt',
    });
    assert.equal(summary.snapshot_date, '2025-06-09');
    const next = importFile(store, {
      sourceId: 'bundesbank-blz',
      bytes: september(),
      fileName: 'blz_2025_09_08_txt.txt',
    });
    assert.equal(next.snapshot_date, '2025-09-08');
    assert.ok(next.events > 0);
  });

  it('OeNB, NBB, SIX, GLEIF XML and Fed files carry their own dates; re-imports are no-ops, older files refused', () => {
    const store = freshStore();
    const cases: [string, string, string, string][] = [
      [
        'oenb-sepa',
        'oenb-sepa-verzeichnis/2025-09-22/at.csv',
        'oenb-sepa-verzeichnis/2025-09-15/at.csv',
        '2025-09-22',
      ],
      [
        'nbb-bank-codes',
        'nbb-bank-codes/2025-08-04/nbb.xlsx',
        'nbb-bank-codes/2019-07-03/nbb.xlsx',
        '2025-08-04',
      ],
      [
        'six-bankenstamm',
        'six-bankenstamm/2025-10-06/ch.xlsx',
        'six-bankenstamm/2025-09-29/ch.xls',
        '2025-10-06',
      ],
      [
        'fedach',
        'fedach/2018-12-04/FedACHdir.txt',
        'fedach/2016-02-03/FedACHdir.txt',
        '2018-12-04',
      ],
      ['fedwire', 'fedwire/2018-12-03/fpddir.txt', 'fedwire/2016-02-04/fpddir.txt', '2018-12-03'],
    ];
    for (const [sourceId, newer, older, date] of cases) {
      const summary = importFile(store, { sourceId, bytes: readShared(newer), fileName: 'file' });
      assert.equal(summary.snapshot_date, date, sourceId);
      const identity = store.identity();
      assert.equal(
        importFile(store, { sourceId, bytes: readShared(newer), fileName: 'file' }).unchanged,
        true,
        sourceId,
      );
      assert.throws(
        () => importFile(store, { sourceId, bytes: readShared(older), fileName: 'file' }),
        /before the current snapshot/,
        sourceId,
      );
      assert.deepEqual(store.identity(), identity, sourceId);
    }
    const gleif = importFile(store, {
      sourceId: 'gleif-lei',
      bytes: readShared('gleif/20180901-gleif-concatenated-file-lei2-Top10.xml'),
      fileName: 'top10.xml',
    });
    assert.equal(gleif.snapshot_date, '2018-09-01');
    const delta = importFile(store, {
      sourceId: 'gleif-lei',
      bytes: readShared('gleif/20240505-0000-gleif-goldencopy-lei2-intra-day.json'),
      fileName: '20240505-0000-gleif-goldencopy-lei2-intra-day.json',
      delta: true,
    });
    assert.equal(delta.snapshot_date, '2024-05-05');
    assert.throws(
      () =>
        importFile(store, {
          sourceId: 'gleif-lei',
          bytes: readShared('gleif/20240505-0000-gleif-goldencopy-lei2-intra-day.json'),
          fileName: 'renamed.json',
        }),
      /carries no date/,
    );
  });
});

describe('synthetic fixture', () => {
  it('an identical file is a no-op whatever date it is given; the fingerprint does not move', () => {
    const store = freshStore();
    const bytes = readFixture('bundesbank-synthetic-latin1.txt');
    const first = importFile(store, {
      sourceId: 'bundesbank-blz',
      bytes,
      fileName: 'synthetic.txt',
      snapshotDate: '2025-01-01',
    });
    for (const snapshotDate of [undefined, '2025-01-01', '2025-03-01', '2024-12-01']) {
      const again = importFile(store, {
        sourceId: 'bundesbank-blz',
        bytes,
        fileName: 'synthetic.txt',
        ...(snapshotDate === undefined ? {} : { snapshotDate }),
      });
      assert.equal(again.unchanged, true, snapshotDate);
      assert.deepEqual(store.identity(), first.registry, snapshotDate);
    }
  });
});
