import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { makeRecord } from '../importers/common.js';
import type { ParsedSnapshot, RegistryRecord } from '../record.js';
import { lookupIdentifier } from './lookup.js';
import { RegistryStore } from './registry-store.js';
import { searchRegistry } from './search.js';

/** SYNTHETIC records: bank codes 9999xxxx, BICs SYNT..., names "Synthetic ...". */
function bank(
  key: string,
  name: string,
  bic: string | null,
  extra: Record<string, string> = {},
): RegistryRecord {
  return makeRecord({
    source_id: 'synthetic',
    record_key: key,
    record_type: 'bank',
    country_code: 'DE',
    legal_name: name,
    bic,
    domestic_codes: [{ scheme: 'de_blz', value: `9999${key}` }],
    fields: { blz: `9999${key}`, name, bic: bic ?? '', ...extra },
  });
}

function snapshot(date: string, records: readonly RegistryRecord[]): ParsedSnapshot {
  const source = {
    source_id: 'synthetic',
    publisher: 'Synthetic Publisher',
    title: 'synthetic',
    license: 'none (synthetic)',
    version: null,
  };
  return {
    source_id: 'synthetic',
    source,
    snapshot_date: date,
    records,
    row_count: records.length,
    ignored_fields: ['download'],
  };
}

const dirs: string[] = [];
function freshStore(): { store: RegistryStore; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-registry-'));
  dirs.push(dir);
  return { store: RegistryStore.openWriter(dir), dir };
}
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const june = snapshot('2025-06-01', [
  bank('0001', 'Synthetic Alpha Bank', 'SYNTDEAAXXX', { download: '20250601' }),
  bank('0002', 'Synthetic Beta Bank', 'SYNTDEBB', { download: '20250601' }),
  bank('0003', 'Synthetic Gamma Sparkasse', null, { download: '20250601' }),
]);
const september = snapshot('2025-09-01', [
  bank('0001', 'Synthetic Alpha Bank', 'SYNTDEAAXXX', { download: '20250901' }),
  bank('0002', 'Synthetic Beta Bank Renamed', 'SYNTDECCXXX', { download: '20250901' }),
  bank('0004', 'Synthetic Delta Bank', 'SYNTDEDDXXX', { download: '20250901' }),
]);

describe('RegistryStore imports', () => {
  it('stores snapshots, stable record ids and one change event per changed record; ignored fields are no change', () => {
    const { store } = freshStore();
    const first = store.import(june, { now: new Date('2025-06-02T00:00:00Z') });
    assert.equal(first.events, 0, 'the first snapshot of a source is the baseline');
    const betaId = store.recordId('synthetic', '0002');
    const second = store.import(september, { now: new Date('2025-09-02T00:00:00Z') });
    assert.deepEqual(second.changes, { added: 1, removed: 1, modified: 1 });
    assert.equal(
      store.recordId('synthetic', '0002'),
      betaId,
      'record ids are stable per (source, key)',
    );
    const events = store.events({ sourceId: 'synthetic', limit: 10 });
    assert.deepEqual(events.map((e) => [e.record_key, e.change_type]).sort(), [
      ['0002', 'modified'],
      ['0003', 'removed'],
      ['0004', 'added'],
    ]);
    const modified = events.find((e) => e.change_type === 'modified');
    assert.deepEqual(modified?.changes, [
      { field: 'name', before: 'Synthetic Beta Bank', after: 'Synthetic Beta Bank Renamed' },
      { field: 'bic', before: 'SYNTDEBB', after: 'SYNTDECCXXX' },
    ]);
    assert.equal(modified?.schema, 'registry-change/1.0');
    assert.equal(modified?.snapshot_id, second.snapshot_id);
    assert.equal(modified?.previous_snapshot_id, first.snapshot_id);
    assert.equal(modified?.detected_at, '2025-09-02T00:00:00.000Z');
    assert.equal(modified?.effective_at, '2025-09-01');
    assert.ok(
      store.events({ limit: 100 }).every((e) => e.changes.every((c) => c.field !== 'download')),
    );
    assert.equal(second.registry.version, 2);
    assert.notEqual(second.registry.fingerprint, first.registry.fingerprint);
  });

  it('keeps indexes in step: old BIC, removed records and old names are no longer found', () => {
    const { store } = freshStore();
    store.import(june);
    store.import(september);
    assert.equal(lookupIdentifier(store, 'SYNTDEBB', 'bic', 25).records.length, 0);
    assert.equal(lookupIdentifier(store, 'SYNTDECC', 'bic', 25).records[0]?.record_key, '0002');
    assert.equal(lookupIdentifier(store, 'SYNTDECCXXX', undefined, 25).type, 'bic');
    assert.equal(
      lookupIdentifier(store, '99990003', 'bank_code', 25).records.length,
      0,
      'removed records leave the current data',
    );
    assert.equal(
      lookupIdentifier(store, 'DE:99990004', 'de_blz', 25).records[0]?.legal_name,
      'Synthetic Delta Bank',
    );
    assert.deepEqual(
      searchRegistry(store, { query: 'synthetic renamed', limit: 10 }).records.map(
        (r) => r.record_key,
      ),
      ['0002'],
    );
    assert.deepEqual(searchRegistry(store, { query: 'gamma', limit: 10 }).records, []);
    assert.throws(() => lookupIdentifier(store, 'x', 'passport', 25), AppError);
  });

  it('search ranks exact words first, honours filters and reports truncation', () => {
    const { store } = freshStore();
    store.import(september);
    const all = searchRegistry(store, { query: 'bank', limit: 2 });
    assert.equal(all.records.length, 2);
    assert.equal(all.truncated, true);
    assert.equal(
      searchRegistry(store, { query: 'ban', limit: 10, country_code: 'DE' }).records.length,
      3,
    );
    assert.equal(
      searchRegistry(store, { query: 'bank', limit: 10, country_code: 'AT' }).records.length,
      0,
    );
    assert.equal(
      searchRegistry(store, { query: 'syntdedd', limit: 10 }).records[0]?.record_key,
      '0004',
      'identifiers are searchable',
    );
    assert.throws(() => searchRegistry(store, { query: '-!', limit: 10 }), AppError);
  });

  it('an unchanged file is a no-op, an older one is refused, a failure inside the transaction changes nothing', () => {
    const { store } = freshStore();
    store.import(june);
    const second = store.import(september);
    assert.equal(store.import(september).unchanged, true);
    assert.throws(
      () => store.import(june),
      (e: unknown) => e instanceof AppError && /before the current snapshot/.test(e.message),
    );
    const identity = store.identity();
    const failing = snapshot('2025-12-01', [
      ...september.records,
      bank('0005', 'Synthetic Epsilon', null),
    ]);
    assert.throws(
      () =>
        store.import(failing, {
          onProgress: (done, total) => {
            if (done === total) throw new Error('disk full (simulated)');
          },
        }),
      /disk full/,
    );
    assert.deepEqual(store.identity(), identity);
    assert.equal(store.source('synthetic')?.current_snapshot_id, second.snapshot_id);
    assert.equal(store.recordId('synthetic', '0005'), undefined);
    assert.equal(lookupIdentifier(store, '99990004', undefined, 25).records.length, 1);
  });

  it('a delta snapshot keeps the records the file does not mention', () => {
    const { store } = freshStore();
    store.import(june);
    const delta = store.import(
      snapshot('2025-07-01', [bank('0004', 'Synthetic Delta Bank', null)]),
      { mode: 'delta' },
    );
    assert.deepEqual(delta.changes, { added: 1, removed: 0, modified: 0 });
    assert.equal(delta.row_count, 4);
  });

  it('survives a reopen: records, events and identity persist', async () => {
    const { store, dir } = freshStore();
    store.import(june);
    store.import(september);
    const identity = store.identity();
    await store.close();
    const reopened = RegistryStore.openReader(dir);
    assert.deepEqual(reopened.identity(), identity);
    assert.equal(reopened.events({ limit: 10 }).length, 3);
    assert.equal(reopened.snapshotAsParsed(2).records.length, 3);
    await reopened.close();
  });

  it('a process holds a registry one way at a time: no writer beside a reader, nor the reverse', async () => {
    const { store: writer, dir } = freshStore();
    writer.import(june);
    assert.throws(
      () => RegistryStore.openReader(dir),
      (e: unknown) => e instanceof AppError && /open for import/.test(e.message),
    );
    await writer.close();
    const reader = RegistryStore.openReader(dir);
    assert.equal(RegistryStore.openReader(dir), reader, 'readers share one handle');
    assert.throws(
      () => RegistryStore.openWriter(dir),
      (e: unknown) => e instanceof AppError && /open for reading/.test(e.message),
    );
    await reader.close();
    assert.equal(reader.identity().version > 0, true, 'one user still holds it open');
    await reader.close();
    const next = RegistryStore.openWriter(dir);
    assert.equal(
      next.import(september).unchanged,
      false,
      'with every reader closed, the importer writes',
    );
    await next.close();
  });
});
