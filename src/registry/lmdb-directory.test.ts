import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readFixture } from '../../test/fixtures/registry/paths.js';
import { AppError } from '../errors.js';
import { loadEmbeddedDefault } from './embedded-default.js';
import { makeRecord } from './importers/common.js';
import { LmdbDirectory } from './lmdb-directory.js';
import { bankDirectoryOver, openServiceRegistry } from './load-directory.js';
import { createMemoryDirectory } from './memory-directory.js';
import type { ParsedSnapshot, RegistryRecord } from './record.js';
import { importFile } from './store/import-file.js';
import { RegistryStore } from './store/registry-store.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-directory-'));
  dirs.push(dir);
  return dir;
}
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** SYNTHETIC snapshot of one source. */
function snapshotOf(
  sourceId: string,
  records: RegistryRecord[],
  date = '2024-01-01',
): ParsedSnapshot {
  const source = {
    source_id: sourceId,
    publisher: 'synthetic',
    title: 'synthetic',
    license: 'synthetic',
    version: null,
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

describe('LmdbDirectory', () => {
  it('built on first start from the embedded default, it answers like the in-memory directory over the same data', async () => {
    const registry = await openServiceRegistry(tempDir());
    const directory = bankDirectoryOver(registry);
    // Every embedded snapshot, both bankdata-germany sets included: the codes its newer set removed (still in
    // the Bundesbank table) are not live in either directory, from the change events and from the snapshot list.
    const memory = createMemoryDirectory(loadEmbeddedDefault());
    for (const country of ['AT', 'BE', 'FR', 'LU', 'NL', 'DE', 'PL', 'FI']) {
      assert.deepEqual(directory.bankCodesOf(country), memory.bankCodesOf(country), country);
      for (const code of directory.bankCodesOf(country))
        assert.deepEqual(
          directory.bankOf(country, code),
          memory.bankOf(country, code),
          `${country} ${code}`,
        );
    }
    assert.equal((directory as LmdbDirectory).registry.sources().length, 4);
    // The handle the service holds is read-only down to LMDB: neither an import nor a raw put gets through.
    assert.equal(registry.readOnly, true);
    assert.throws(
      () => registry.import(loadEmbeddedDefault()[0]!),
      (error: unknown) => error instanceof AppError && /read-only/.test(error.message),
    );
    assert.throws(() => registry.dbs.meta.putSync('probe', 1));
    assert.equal(registry.dbs.meta.get('probe'), undefined);
    await registry.close();
  });

  it('publisher files speak first, npm data fills gaps; an import in this process drops the cache', () => {
    const store = RegistryStore.openWriter(tempDir());
    const directory = new LmdbDirectory(store);
    const embedded = makeRecord({
      source_id: 'embedded-synthetic',
      record_key: '99999901',
      record_type: 'bank',
      country_code: 'DE',
      legal_name: 'Embedded Name',
      bic: 'SYNTDEEMXXX',
      domestic_codes: [{ scheme: 'de_blz', value: '99999901' }],
      fields: { n: '1' },
    });
    store.import(snapshotOf('embedded-synthetic', [embedded]), { origin: 'embedded' });
    assert.equal(directory.bankOf('DE', '99999901')?.name, 'Embedded Name');
    importFile(store, {
      sourceId: 'bundesbank-blz',
      bytes: readFixture('bundesbank-synthetic-latin1.txt'),
      fileName: 'x',
      snapshotDate: '2024-01-01',
    });
    const bank = directory.bankOf('DE', '99999901');
    assert.equal(
      bank?.name,
      'Synthetische Testbank Köln',
      'the publisher record, not the embedded one',
    );
    assert.equal(
      bank?.city,
      'Köln',
      'the main record (Merkmal 1) wins over the branch of the same code',
    );
    assert.equal(directory.accountCheckMethod('DE', '99999901'), '00');
    assert.equal(directory.accountCheckMethod('DE', '12345678'), undefined);
  });

  it('pads SIX IIDs to the IBAN width, expands NBB ranges, and links a BIC to GLEIF only through a published LEI', () => {
    const store = RegistryStore.openWriter(tempDir());
    const directory = new LmdbDirectory(store);
    store.import(
      snapshotOf('six-synthetic', [
        makeRecord({
          source_id: 'six-synthetic',
          record_key: '762-0000',
          record_type: 'bank',
          country_code: 'CH',
          legal_name: 'Synthetic CH Bank',
          bic: 'SYNTCHZZXXX',
          domestic_codes: [{ scheme: 'ch_iid', value: '762' }],
          fields: { a: '1' },
        }),
      ]),
    );
    store.import(
      snapshotOf('nbb-synthetic', [
        makeRecord({
          source_id: 'nbb-synthetic',
          record_key: '997-999',
          record_type: 'bank_code_range',
          country_code: 'BE',
          legal_name: 'Synthetic BE Bank',
          bic: 'SYNTBEBBXXX',
          domestic_codes: [{ scheme: 'be_protocol_range', value: '997-999' }],
          fields: { a: '1' },
        }),
      ]),
    );
    store.import(
      snapshotOf('at-synthetic', [
        makeRecord({
          source_id: 'at-synthetic',
          record_key: '99901',
          record_type: 'bank',
          country_code: 'AT',
          legal_name: 'Synthetic AT Bank',
          bic: 'SYNTCHZZXXX',
          lei: 'SYNTHPARENT000000198',
          domestic_codes: [{ scheme: 'at_blz', value: '99901' }],
          fields: { a: '1' },
        }),
      ]),
    );
    store.import(
      snapshotOf('gleif-synthetic', [
        makeRecord({
          source_id: 'gleif-synthetic',
          record_key: 'SYNTHPARENT000000198',
          record_type: 'legal_entity',
          country_code: 'AT',
          legal_name: 'Synthetic Legal Name',
          lei: 'SYNTHPARENT000000198',
          entity_status: 'ACTIVE',
          registration_status: 'LAPSED',
          fields: { a: '1' },
        }),
      ]),
    );
    assert.equal(directory.bankOf('CH', '00762')?.name, 'Synthetic CH Bank');
    assert.deepEqual(
      ['997', '998', '999'].map((code) => directory.bankOf('BE', code)?.bic),
      ['SYNTBEBBXXX', 'SYNTBEBBXXX', 'SYNTBEBBXXX'],
    );
    const ch = directory.bankOf('CH', '00762');
    assert.deepEqual(
      [ch?.lei, ch?.legalName, ch?.registrationStatus],
      ['SYNTHPARENT000000198', 'Synthetic Legal Name', 'LAPSED'],
      'the AT record links the shared BIC to the LEI',
    );
    assert.equal(directory.bankOf('BE', '997')?.lei, null, 'no published link, no LEI');
  });

  it('takes the GLEIF legal-address city only where no bank-code source gives one', () => {
    const store = RegistryStore.openWriter(tempDir());
    const directory = new LmdbDirectory(store);
    const bank = (key: string, lei: string, city: string | null) =>
      makeRecord({
        source_id: 'at-synthetic',
        record_key: key,
        record_type: 'bank',
        country_code: 'AT',
        legal_name: `Synthetic Bank ${key}`,
        lei,
        domestic_codes: [{ scheme: 'at_blz', value: key }],
        address: { street: null, postal_code: null, city, region: null },
        fields: { a: key },
      });
    const entity = (lei: string) =>
      makeRecord({
        source_id: 'gleif-synthetic',
        record_key: lei,
        record_type: 'legal_entity',
        country_code: 'AT',
        legal_name: 'Synthetic Legal Name',
        lei,
        address: { street: null, postal_code: null, city: 'Synthetic Legal City', region: null },
        fields: { a: lei },
      });
    store.import(
      snapshotOf('at-synthetic', [
        bank('99901', 'SYNTHLEI0000000000A1', null),
        bank('99902', 'SYNTHLEI0000000000B2', 'Synthetic Own City'),
        bank('99903', 'SYNTHLEI0000000000C3', null),
      ]),
    );
    store.import(
      snapshotOf('gleif-synthetic', [
        entity('SYNTHLEI0000000000A1'),
        entity('SYNTHLEI0000000000B2'),
      ]),
    );
    assert.deepEqual(
      ['99901', '99902', '99903'].map((code) => directory.bankOf('AT', code)?.city),
      ['Synthetic Legal City', 'Synthetic Own City', null],
    );
  });
});
