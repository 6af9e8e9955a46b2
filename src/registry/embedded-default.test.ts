import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bankDataByBLZ } from 'bankdata-germany';
import { loadEmbeddedDefault } from './embedded-default.js';

const [bundesbank, schwifty, current, next, ibanToBic] = loadEmbeddedDefault();

describe('loadEmbeddedDefault', () => {
  it('puts the shipped tables first: the Bundesbank table, then schwifty', () => {
    assert.deepEqual(
      [bundesbank?.source_id, bundesbank?.snapshot_date, bundesbank?.source.publisher],
      ['bundesbank-blz', '2025-09-08', 'Deutsche Bundesbank'],
    );
    assert.deepEqual([schwifty?.source_id, schwifty?.snapshot_date], ['schwifty', '2026-07-23']);
    assert.match(schwifty?.source.license ?? '', /^MIT, Copyright \(c\) 2021 Martin Domke/);
  });

  it('records the package, version and licence of each snapshot', () => {
    assert.deepEqual(
      [current, next, ibanToBic].map((s) => [s?.source_id, s?.source.version, s?.source.license]),
      [
        ['bankdata-germany', '2.2602.0', 'MIT OR MPL-2.0'],
        ['bankdata-germany', '2.2602.0', 'MIT OR MPL-2.0'],
        ['iban-to-bic', '1.4.0', 'MIT'],
      ],
    );
    // Dates the packages state: CHANGELOG / next.json of bankdata-germany, CHANGELOG of iban-to-bic.
    assert.deepEqual(
      [current?.snapshot_date, next?.snapshot_date, ibanToBic?.snapshot_date],
      ['2026-06-08', '2026-09-07', '2024-09-23'],
    );
  });

  it('gives well-known German banks the name and BIC the package holds', () => {
    const byBlz = (blz: string) => current?.records.find((r) => r.record_key === blz);
    assert.deepEqual(
      [byBlz('10010010')?.legal_name, byBlz('10010010')?.bic],
      ['Postbank Ndl der Deutsche Bank', 'PBNKDEFFXXX'],
    );
    assert.deepEqual(
      [byBlz('10000000')?.legal_name, byBlz('10000000')?.bic],
      ['Bundesbank', 'MARKDEF1100'],
    );
    assert.deepEqual(
      [byBlz('50010517')?.legal_name, byBlz('50010517')?.bic],
      ['ING-DiBa', 'INGDDEFFXXX'],
    );
    // The package has no BIC for this BLZ; none is invented.
    assert.deepEqual(
      [byBlz('60050009')?.legal_name, byBlz('60050009')?.bic, byBlz('60050009')?.fields.bic],
      ['ZV Landesbank Baden-Württemberg ISE', null, undefined],
    );
  });

  it('agrees with the package API on every BLZ, for the current and the next data set', () => {
    for (const [snapshot, date] of [
      [current, '2026-07-01'],
      [next, '2026-09-08'],
    ] as const) {
      assert.ok((snapshot?.records.length ?? 0) > 3_000);
      for (const record of snapshot?.records ?? []) {
        const expected = bankDataByBLZ(record.record_key, date);
        assert.equal(record.legal_name, expected?.bankName, record.record_key);
        assert.equal(record.bic, expected?.bic ?? null, record.record_key);
      }
    }
    // The next data set drops what next.json removes and takes what it upserts.
    assert.equal(
      next?.records.some((r) => r.record_key === '65461878'),
      false,
    );
    assert.equal(
      current?.records.some((r) => r.record_key === '65461878'),
      true,
    );
    assert.equal(
      next?.records.find((r) => r.record_key === '10010123')?.legal_name,
      'Qonto Zweigniederlassung Deutschland',
    );
  });

  it('maps iban-to-bic bank codes per country without names', () => {
    const byKey = (key: string) => ibanToBic?.records.find((r) => r.record_key === key);
    assert.equal(byKey('DE:10010010')?.bic, 'PBNKDEFFXXX');
    assert.equal(byKey('NL:ABNA')?.bic, 'ABNANL2A');
    assert.equal(byKey('AT:11000')?.bic, 'BKAUATWWXXX');
    assert.equal(byKey('BE:100')?.bic, 'NBBEBEBB203');
    assert.equal(byKey('LU:104')?.bic, 'SNCILUL1');
    assert.deepEqual(byKey('FR:10107')?.domestic_codes, [
      { scheme: 'fr_code_banque', value: '10107' },
    ]);
    assert.ok(ibanToBic?.records.every((r) => r.legal_name === null && r.bic !== null));
    assert.equal(ibanToBic?.row_count, 5_749);
  });
});
