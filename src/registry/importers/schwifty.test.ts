// Goal: the schwifty importer reads schwifty's own files (v1 list, v2 with bank_codes) and the compact table the
// project ships, one record per country and bank code, the primary entry first, placeholders and code-less entries
// dropped, malformed input refused with its record number. SYNTHETIC entries, plus the real files in ../shared.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { AppError } from '../../errors.js';
import { needsShared, readShared } from '../../../test/fixtures/registry/paths.js';
import { parseSchwifty } from './schwifty.js';

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe('parseSchwifty on synthetic files', () => {
  it('v1: one record per bank code, the primary entry wins, placeholders and empty codes dropped', () => {
    const snapshot = parseSchwifty(
      json([
        {
          bank_code: '99990001',
          name: 'Synthetic Branch',
          short_name: 'Syn',
          bic: '',
          primary: false,
          country_code: 'DE',
          checksum_algo: '00',
        },
        {
          bank_code: '99990001',
          name: 'Synthetic Bank',
          short_name: 'Syn',
          bic: 'SYNTDEF1XXX',
          primary: true,
          country_code: 'DE',
          checksum_algo: '09',
        },
        {
          bank_code: '',
          name: 'No Code Bank',
          short_name: '',
          bic: '',
          primary: true,
          country_code: 'DE',
        },
        {
          bank_code: '998',
          name: 'VRIJ',
          short_name: 'VRIJ',
          bic: '',
          primary: true,
          country_code: 'BE',
        },
      ]),
      { snapshotDate: '2026-01-01' },
    );
    assert.deepEqual(
      snapshot.records.map((r) => [r.record_key, r.legal_name, r.bic, r.account_checksum_method]),
      [['DE:99990001', 'Synthetic Bank', 'SYNTDEF1XXX', '09']],
    );
    assert.deepEqual(snapshot.records[0]?.domestic_codes, [
      { scheme: 'de_blz', value: '99990001' },
    ]);
    assert.equal(snapshot.snapshot_date, '2026-01-01');
  });

  it('v2: bank_codes expand; other countries get a <cc>_bank_code scheme', () => {
    const snapshot = parseSchwifty(
      json({
        entries: [
          {
            name: 'Synthetic Pankki',
            short_name: 'SP',
            bic: 'SYNTFIHH',
            primary: true,
            country_code: 'FI',
            bank_codes: ['991', '992'],
          },
        ],
        expand_from: 'bank_codes',
        expand_into: 'bank_code',
      }),
    );
    assert.deepEqual(
      snapshot.records.map((r) => [r.record_key, r.domestic_codes[0]?.scheme]),
      [
        ['FI:991', 'fi_bank_code'],
        ['FI:992', 'fi_bank_code'],
      ],
    );
    assert.equal(snapshot.snapshot_date, null, 'schwifty files carry no date');
  });

  it('the compact table, plain or gzip', () => {
    const table =
      'country_code\tbank_code\tname\tshort_name\tbic\tprimary\tchecksum_algo\nAT\t99901\tSynthetic AT Bank\t\tSYNTATW1\t1\t\n';
    for (const bytes of [new TextEncoder().encode(table), gzipSync(table)]) {
      assert.deepEqual(
        parseSchwifty(bytes).records.map((r) => [r.record_key, r.bic, r.domestic_codes[0]?.scheme]),
        [['AT:99901', 'SYNTATW1', 'at_blz']],
      );
    }
  });

  it('refuses malformed entries with their record number', () => {
    const refuses = (value: unknown, pattern: RegExp) =>
      assert.throws(
        () => parseSchwifty(json(value)),
        (e: unknown) => e instanceof AppError && pattern.test(e.message),
      );
    refuses([{ bank_code: '1', country_code: 'Germany' }], /record 1: country_code "Germany"/);
    refuses(
      { entries: [{ country_code: 'FI' }] },
      /record 1: v2 entry without a "bank_codes" list/,
    );
    refuses({ nothing: [] }, /without an "entries" list/);
  });
});

describe('parseSchwifty on the real schwifty files', { skip: needsShared }, () => {
  it('generated_be.v2.json: 799 codes less the placeholder ones; generated_de.json with check methods', () => {
    const be = parseSchwifty(readShared('schwifty-bank-registry/generated_be.v2.json'));
    assert.equal(
      be.records.some((r) => r.record_key === 'BE:539' || r.record_key === 'BE:529'),
      false,
    );
    assert.equal(be.records.find((r) => r.record_key === 'BE:001')?.bic, 'GEBABEBB');
    const de = parseSchwifty(readShared('schwifty-bank-registry/generated_de.json'));
    assert.equal(de.row_count, 3_503);
    assert.equal(
      de.records.find((r) => r.record_key === 'DE:10000000')?.account_checksum_method,
      '09',
    );
  });
});
