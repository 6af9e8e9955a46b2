import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { needsShared, readShared } from '../../../test/fixtures/registry/paths.js';
import { writeXlsx } from '../../../test/fixtures/registry/xlsx-writer.js';
import { parseSix, sixColumns } from './six.js';

/** SYNTHETIC rows in the Bankenstamm layout: made-up IIDs, names and BICs. */
function row(values: Partial<Record<(typeof sixColumns)[number], string>>): string[] {
  return sixColumns.map((column) => values[column] ?? '');
}

const head = row({
  Gruppe: '99',
  IID: '99001',
  'Filial-ID': '0000',
  'SIC-IID': '990014',
  Hauptsitz: '99001',
  'IID-Art': '1',
  'Gültig seit': '20240105',
  'Kurzbez.': 'Synth',
  'Name Bank/Institut': 'Synthetische Testbank AG',
  Domizil: 'Testweg 1',
  PLZ: '8000',
  Ort: 'Zürich',
  BIC: 'SYNTCHZZXXX',
});
const branch = row({
  Gruppe: '99',
  IID: '99002',
  'Filial-ID': '0001',
  Hauptsitz: '99001',
  'IID-Art': '3',
  'Gültig seit': '20240105',
  'Name Bank/Institut': 'Synthetische Testbank AG, Filiale Bern',
  Ort: 'Bern',
  Landcode: 'LI',
});
const merged = row({
  Gruppe: '99',
  IID: '99003',
  'Filial-ID': '0000',
  'IID neu': '99001',
  Hauptsitz: '99003',
  'IID-Art': '1',
  'Gültig seit': '20230401',
  'Name Bank/Institut': 'Synthetische Altbank AG',
});
const header = [...sixColumns];

function rejects(rows: string[][], pattern: RegExp): void {
  assert.throws(
    () => parseSix(writeXlsx(rows)),
    (error: unknown) =>
      error instanceof AppError && error.code === 'invalid_argument' && pattern.test(error.message),
  );
}

describe('parseSix on a synthetic workbook', () => {
  const snapshot = parseSix(writeXlsx([header, head, branch, merged]));

  it('keys rows by IID and Filial-ID and types them by IID-Art', () => {
    assert.deepEqual(
      snapshot.records.map((r) => [r.record_key, r.record_type]),
      [
        ['99001-0000', 'bank'],
        ['99002-0001', 'branch'],
        ['99003-0000', 'bank'],
      ],
    );
  });

  it('links a branch to its Hauptsitz and a merged IID to its successor with the real change date', () => {
    const [main, child, old] = snapshot.records;
    assert.deepEqual(main?.parents, []);
    assert.deepEqual(child?.parents, [
      {
        relationship_type: 'head_office',
        scheme: 'ch_iid',
        value: '99001',
        status: null,
        start_date: null,
      },
    ]);
    assert.deepEqual(old?.successor, {
      scheme: 'ch_iid',
      value: '99001',
      effective_at: '2023-04-01',
    });
    assert.equal(main?.successor, null);
  });

  it('maps names, address, BIC and country, and ignores the download date', () => {
    const [main, child] = snapshot.records;
    assert.equal(main?.legal_name, 'Synthetische Testbank AG');
    assert.equal(main?.short_name, 'Synth');
    assert.equal(main?.bic, 'SYNTCHZZXXX');
    assert.deepEqual(main?.address, {
      street: 'Testweg 1',
      postal_code: '8000',
      city: 'Zürich',
      region: null,
    });
    assert.deepEqual([main?.country_code, child?.country_code], ['CH', 'LI']);
    assert.deepEqual(snapshot.ignored_fields, ['Gültig seit']);
    // The snapshot date is the download date on live rows, not the older change date of the merged row.
    assert.equal(snapshot.snapshot_date, '2024-01-05');
  });
});

describe('parseSix rejects malformed workbooks with the row number', () => {
  it('a missing header', () => rejects([head, branch], /^SIX Bankenstamm line 1: missing header/));
  it('a duplicate IID and Filial-ID', () =>
    rejects([header, head, branch, head], /line 4: duplicate key 99001-0000 \(first at line 2\)/));
  it('an unknown IID-Art', () =>
    rejects(
      [
        header,
        row({ IID: '99004', 'Filial-ID': '0000', 'IID-Art': '7', 'Gültig seit': '20240105' }),
      ],
      /line 2: IID-Art "7"/,
    ));
  it('a value without a column', () =>
    rejects([header, [...head, 'stray']], /line 2: value in column 24/));
  it('no data rows', () => rejects([header], /line 2: no data rows/));
});

describe('parseSix on the real SIX files', { skip: needsShared }, () => {
  it('reads the README row counts and the same records from .xls and .xlsx', () => {
    for (const [date, rows] of [
      ['2025-09-29', 2_917],
      ['2025-10-06', 2_915],
    ] as const) {
      const fromXls = parseSix(readShared(`six-bankenstamm/${date}/ch.xls`));
      const fromXlsx = parseSix(readShared(`six-bankenstamm/${date}/ch.xlsx`));
      assert.equal(fromXls.row_count, rows);
      assert.equal(fromXls.snapshot_date, date);
      assert.deepEqual(fromXlsx.records, fromXls.records);
    }
  });

  it('publishes a successor only on rows with IID neu', () => {
    const snapshot = parseSix(readShared('six-bankenstamm/2025-09-29/ch.xls'));
    const withSuccessor = snapshot.records.filter((r) => r.successor !== null);
    assert.equal(
      withSuccessor.length,
      snapshot.records.filter((r) => r.fields['IID neu'] !== '').length,
    );
    assert.ok(withSuccessor.length > 0);
    assert.ok(
      withSuccessor.every(
        (r) => r.successor?.effective_at !== null && r.successor?.effective_at !== '2025-09-29',
      ),
    );
  });
});
