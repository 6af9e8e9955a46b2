import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { needsShared, readShared } from '../../../test/fixtures/registry/paths.js';
import { writeXlsx } from '../../../test/fixtures/registry/xlsx-writer.js';
import { nbbColumns, parseNbb } from './nbb.js';

/** SYNTHETIC ranges: made-up banks and BICs in the NBB layout. */
const header = [...nbbColumns];
const spaced = ['900', '909', 'SYNT BE B1', 'Synthetische Bank NL', 'Banque Synthétique', '', ''];
const placeholder = ['910', '919', 'VRIJ', '', '', '', ''];
const branchCode = ['920', '920', 'synt be b1 abc', '', '', 'Synthetische Bank DE', ''];

function rejects(rows: string[][], pattern: RegExp): void {
  assert.throws(
    () => parseNbb(writeXlsx(rows)),
    (error: unknown) =>
      error instanceof AppError && error.code === 'invalid_argument' && pattern.test(error.message),
  );
}

describe('parseNbb on a synthetic workbook', () => {
  const snapshot = parseNbb(
    writeXlsx([['Version 01/02/2024'], header, spaced, placeholder, branchCode]),
  );

  it('reads the snapshot date from A1 and keys ranges From-To', () => {
    assert.equal(snapshot.snapshot_date, '2024-02-01');
    assert.deepEqual(
      snapshot.records.map((r) => r.record_key),
      ['900-909', '910-919', '920-920'],
    );
    assert.deepEqual(
      snapshot.records.map((r) => r.record_type),
      ['bank_code_range', 'unassigned', 'bank_code_range'],
    );
    assert.ok(snapshot.records.every((r) => r.country_code === 'BE'));
  });

  it('normalizes spaced BICs and turns placeholders into no BIC', () => {
    assert.deepEqual(
      snapshot.records.map((r) => r.bic),
      ['SYNTBEB1', null, 'SYNTBEB1ABC'],
    );
    assert.equal(snapshot.records[1]?.fields.Biccode, 'VRIJ');
  });

  it('names the range by the first published language', () => {
    assert.deepEqual(
      snapshot.records.map((r) => r.legal_name),
      ['Synthetische Bank NL', null, 'Synthetische Bank DE'],
    );
  });
});

describe('parseNbb rejects malformed workbooks with the row number', () => {
  it('no version in A1', () =>
    rejects([['Bank codes'], header, spaced], /^NBB bank-code list line 1: cell A1 "Bank codes"/));
  it('a missing header', () => rejects([['Version 01/02/2024'], spaced], /line 2: missing header/));
  it('a range that is not two 3-digit codes', () =>
    rejects([['Version 01/02/2024'], header, ['90', '909', 'x']], /line 3: range "90"-"909"/));
  it('a duplicate range', () =>
    rejects([['Version 01/02/2024'], header, spaced, spaced], /line 4: duplicate key 900-909/));
});

describe('parseNbb on the real NBB files', { skip: needsShared }, () => {
  it('reads the README range counts and A1 dates', () => {
    const old = parseNbb(readShared('nbb-bank-codes/2019-07-03/nbb.xlsx'));
    const current = parseNbb(readShared('nbb-bank-codes/2025-08-04/nbb.xlsx'));
    assert.deepEqual([old.row_count, current.row_count], [281, 273]);
    assert.deepEqual([old.snapshot_date, current.snapshot_date], ['2019-07-03', '2025-08-04']);
    assert.equal(current.records[0]?.bic, 'GEBABEBB');
    const placeholders = current.records.filter((r) =>
      /^(nav|NAV|NAP|VRIJ|-)$/.test(r.fields.Biccode ?? ''),
    );
    assert.ok(placeholders.length > 0 && placeholders.every((r) => r.bic === null));
  });

  it('marks the free and withheld ranges ("VRIJ", "Onbeschikbaar") unassigned: no name, no BIC, no bank', () => {
    const current = parseNbb(readShared('nbb-bank-codes/2025-08-04/nbb.xlsx'));
    const unassigned = current.records.filter((r) => r.record_type === 'unassigned');
    // Counted independently: rows whose Dutch name is exactly VRIJ or Onbeschikbaar.
    const expected = current.records.filter((r) =>
      ['VRIJ', 'Onbeschikbaar'].includes(r.fields['Name Dutch'] ?? ''),
    );
    assert.deepEqual(
      unassigned.map((r) => r.record_key),
      expected.map((r) => r.record_key),
    );
    assert.ok(
      unassigned.some((r) => r.record_key === '539-539') &&
        unassigned.some((r) => r.record_key === '112-112'),
    );
    assert.ok(
      unassigned.every(
        (r) => r.legal_name === null && r.bic === null && r.domestic_codes.length === 0,
      ),
    );
    // Banks without a BIC ("nav", "NYA", "-") stay banks.
    assert.equal(
      current.records.find((r) => r.record_key === '917-917')?.record_type,
      'bank_code_range',
    );
  });
});
