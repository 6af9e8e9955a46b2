import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { needsShared, readShared } from '../../../test/fixtures/registry/paths.js';
import { writeXlsx } from '../../../test/fixtures/registry/xlsx-writer.js';
import { readFirstSheet } from './sheet.js';
import { columnIndex, numberText } from './sheet-cells.js';

function rejects(bytes: Uint8Array, pattern: RegExp): void {
  assert.throws(
    () => readFirstSheet(bytes, 'Test workbook'),
    (error: unknown) => error instanceof AppError && error.code === 'invalid_argument' && pattern.test(error.message),
  );
}

describe('readFirstSheet', () => {
  it('reads shared strings into dense rows, with gaps as empty cells', () => {
    const sheet = readFirstSheet(writeXlsx([['a', '', 'c & <d>'], [], ['', 'Zürich']]), 'Test workbook');
    assert.equal(sheet.name, 'Synthetic');
    assert.deepEqual(sheet.rows, [['a', '', 'c & <d>'], [], ['', 'Zürich']]);
  });

  it('rejects bytes that are no workbook', () => rejects(new TextEncoder().encode('From;To\n000;049'), /^Test workbook line 1: not an .xlsx or .xls workbook$/));

  it('rejects a truncated .xlsx', () => {
    const bytes = writeXlsx([['a']]);
    rejects(bytes.subarray(0, bytes.length - 30), /line 1: unreadable workbook: not a ZIP archive/);
  });

  it('rejects a compound file whose header is cut short', () => {
    const magic = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
    rejects(Uint8Array.from([...magic, 0, 0, 0]), /line 1: unreadable workbook: compound file header is truncated/);
  });

  it('names columns and prints numbers as spreadsheets show them', () => {
    assert.deepEqual(['A', 'Z', 'AA', 'AZ'].map(columnIndex), [0, 25, 26, 51]);
    assert.deepEqual([20250929, 1.5, -3].map(numberText), ['20250929', '1.5', '-3']);
  });
});

describe('the .xls (BIFF8) reader on the real SIX download', { skip: needsShared }, () => {
  it('yields exactly the cells of the LibreOffice .xlsx conversion', () => {
    for (const date of ['2025-09-29', '2025-10-06']) {
      const xls = readFirstSheet(readShared(`six-bankenstamm/${date}/ch.xls`), 'SIX');
      const xlsx = readFirstSheet(readShared(`six-bankenstamm/${date}/ch.xlsx`), 'SIX');
      assert.equal(xls.name, 'Bankenstamm');
      assert.deepEqual(xls.rows, xlsx.rows);
    }
  });

  it('rejects the .xls cut in half', () => {
    const bytes = readShared('six-bankenstamm/2025-09-29/ch.xls');
    rejects(bytes.subarray(0, Math.floor(bytes.length / 2)), /line 1: unreadable workbook/);
  });
});
