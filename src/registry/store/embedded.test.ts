import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { makeRecord } from '../importers/common.js';
import type { ParsedSnapshot } from '../record.js';
import { ensureEmbeddedDefault, type EmbeddedData } from './embedded.js';
import { RegistryStore } from './registry-store.js';

/** SYNTHETIC package data: two "packages", bank codes 9999xxxx, names "Synthetic ...". */
function packageSnapshot(
  sourceId: string,
  version: string,
  date: string,
  names: Readonly<Record<string, string>>,
): ParsedSnapshot {
  const records = Object.entries(names).map(([code, name]) =>
    makeRecord({
      source_id: sourceId,
      record_key: code,
      record_type: 'bank',
      country_code: 'DE',
      legal_name: name,
      bic: null,
      domestic_codes: [{ scheme: 'de_blz', value: code }],
      fields: { blz: code, name },
    }),
  );
  const source = {
    source_id: sourceId,
    publisher: `${sourceId} (SYNTHETIC package)`,
    title: sourceId,
    license: 'synthetic',
    version,
  };
  return {
    source_id: sourceId,
    source,
    snapshot_date: date,
    records,
    row_count: records.length,
    ignored_fields: [],
  };
}

/** Installed packages as the test says; counts how often the (expensive) snapshots are read. */
function installed(snapshots: readonly ParsedSnapshot[]): EmbeddedData & { reads: number } {
  const data = {
    reads: 0,
    versions: () =>
      Object.fromEntries(
        snapshots.map((snapshot) => [snapshot.source_id, snapshot.source.version ?? '']),
      ),
    snapshots: () => {
      data.reads++;
      return [...snapshots];
    },
  };
  return data;
}

const v1 = [
  packageSnapshot('synthetic-a', '1.0.0', '2026-01-05', {
    '99990001': 'Synthetic Alpha',
    '99990002': 'Synthetic Beta',
  }),
  packageSnapshot('synthetic-a', '1.0.0', '2026-03-02', {
    '99990001': 'Synthetic Alpha',
    '99990002': 'Synthetic Beta',
    '99990003': 'Synthetic Gamma',
  }),
  packageSnapshot('synthetic-b', '4.1.0', '2026-02-01', { '99990009': 'Synthetic Other' }),
];

const dirs: string[] = [];
function freshStore(): RegistryStore {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-embedded-'));
  dirs.push(dir);
  return RegistryStore.openWriter(dir);
}
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('embedded default', () => {
  it('fills an empty registry with every snapshot in order, then reads no package data while the versions match', async () => {
    const store = freshStore();
    const first = ensureEmbeddedDefault(store, new Date('2026-04-01T00:00:00Z'), installed(v1));
    assert.deepEqual(
      first.imported.map((summary) => [
        summary.source_id,
        summary.snapshot_date,
        summary.changes.added,
      ]),
      [
        ['synthetic-a', '2026-01-05', 0],
        ['synthetic-a', '2026-03-02', 1],
        ['synthetic-b', '2026-02-01', 0],
      ],
    );
    assert.equal(store.source('synthetic-a')?.origin, 'embedded');
    const again = installed(v1);
    assert.deepEqual(ensureEmbeddedDefault(store, new Date(), again), { imported: [], kept: [] });
    assert.equal(again.reads, 0, 'a start with unchanged packages reads only their versions');
    await store.close();
  });

  it('after a package upgrade, its installed data follows as new snapshots with change events; other sources stay', async () => {
    const store = freshStore();
    ensureEmbeddedDefault(store, new Date('2026-04-01T00:00:00Z'), installed(v1));
    const bBefore = store.source('synthetic-b');
    const upgraded = installed([
      packageSnapshot('synthetic-a', '1.1.0', '2026-03-02', {
        '99990001': 'Synthetic Alpha',
        '99990002': 'Synthetic Beta',
        '99990003': 'Synthetic Gamma',
      }),
      packageSnapshot('synthetic-a', '1.1.0', '2026-06-01', {
        '99990001': 'Synthetic Alpha Renamed',
        '99990003': 'Synthetic Gamma',
      }),
      v1[2] as ParsedSnapshot,
    ]);
    const outcome = ensureEmbeddedDefault(store, new Date('2026-06-02T00:00:00Z'), upgraded);
    assert.deepEqual(outcome.kept, []);
    assert.deepEqual(
      outcome.imported.map((summary) => [
        summary.snapshot_date,
        summary.unchanged,
        summary.changes,
      ]),
      [
        ['2026-03-02', true, { added: 0, removed: 0, modified: 0 }],
        ['2026-06-01', false, { added: 0, removed: 1, modified: 1 }],
      ],
    );
    assert.equal(store.source('synthetic-a')?.version, '1.1.0');
    assert.deepEqual(
      store.source('synthetic-b'),
      bBefore,
      'a package that did not change is not touched',
    );
    assert.deepEqual(
      ensureEmbeddedDefault(store, new Date(), upgraded).imported,
      [],
      'the next start has nothing to do',
    );
    await store.close();
  });

  it('a release with the same data records the new version without a snapshot; a downgrade keeps the stored data', async () => {
    const store = freshStore();
    ensureEmbeddedDefault(store, new Date('2026-04-01T00:00:00Z'), installed(v1));
    const sameData = installed([
      v1[0] as ParsedSnapshot,
      v1[1] as ParsedSnapshot,
      {
        ...(v1[2] as ParsedSnapshot),
        source: { ...(v1[2] as ParsedSnapshot).source, version: '4.1.1' },
      },
    ]);
    const snapshotsBefore = store.source('synthetic-b')?.snapshot_ids;
    const outcome = ensureEmbeddedDefault(store, new Date(), sameData);
    assert.deepEqual(
      outcome.imported.map((summary) => [summary.source_id, summary.unchanged]),
      [['synthetic-b', true]],
    );
    assert.equal(store.source('synthetic-b')?.version, '4.1.1');
    assert.deepEqual(store.source('synthetic-b')?.snapshot_ids, snapshotsBefore);
    assert.equal(ensureEmbeddedDefault(store, new Date(), sameData).imported.length, 0);

    const current = store.source('synthetic-a')?.current_snapshot_id;
    const downgraded = installed([
      packageSnapshot('synthetic-a', '0.9.0', '2025-10-01', { '99990001': 'Synthetic Alpha Old' }),
      ...sameData.snapshots().slice(2),
    ]);
    const refused = ensureEmbeddedDefault(store, new Date(), downgraded);
    assert.deepEqual(refused.imported, []);
    assert.deepEqual(
      refused.kept.map((entry) => entry.source_id),
      ['synthetic-a'],
    );
    assert.match(refused.kept[0]?.reason ?? '', /before the current snapshot/);
    assert.equal(store.source('synthetic-a')?.current_snapshot_id, current);
    await store.close();
  });

  it('never touches a source an operator imported from publisher files', async () => {
    const store = freshStore();
    store.import(
      packageSnapshot('synthetic-a', '1.0.0', '2026-01-05', { '99990001': 'Synthetic Alpha' }),
      { origin: 'publisher' },
    );
    const data = installed([
      packageSnapshot('synthetic-a', '2.0.0', '2026-09-01', {
        '99990001': 'Synthetic Alpha From Package',
      }),
    ]);
    assert.deepEqual(ensureEmbeddedDefault(store, new Date(), data), { imported: [], kept: [] });
    assert.equal(data.reads, 0);
    await store.close();
  });
});
