import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { needsShared, readShared } from '../../../test/fixtures/registry/paths.js';
import { writeXls } from '../../../test/fixtures/registry/xls-writer.js';
import { writeXlsx } from '../../../test/fixtures/registry/xlsx-writer.js';
import { readFirstSheet } from './sheet.js';
import { columnIndex, numberText } from './sheet-cells.js';

function rejects(bytes: Uint8Array, pattern: RegExp): void {
  assert.throws(
    () => readFirstSheet(bytes, 'Test workbook'),
    (error: unknown) =>
      error instanceof AppError && error.code === 'invalid_argument' && pattern.test(error.message),
  );
}

describe('readFirstSheet', () => {
  it('reads shared strings into dense rows, with gaps as empty cells', () => {
    const sheet = readFirstSheet(
      writeXlsx([['a', '', 'c & <d>'], [], ['', 'Zürich']]),
      'Test workbook',
    );
    assert.equal(sheet.name, 'Synthetic');
    assert.deepEqual(sheet.rows, [['a', '', 'c & <d>'], [], ['', 'Zürich']]);
  });

  it('rejects bytes that are no workbook', () =>
    rejects(
      new TextEncoder().encode('From;To\n000;049'),
      /^Test workbook line 1: not an .xlsx or .xls workbook$/,
    ));

  it('rejects a truncated .xlsx', () => {
    const bytes = writeXlsx([['a']]);
    rejects(bytes.subarray(0, bytes.length - 30), /line 1: unreadable workbook: not a ZIP archive/);
  });

  it('rejects a compound file whose header is cut short', () => {
    const magic = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
    rejects(
      Uint8Array.from([...magic, 0, 0, 0]),
      /line 1: unreadable workbook: compound file header is truncated/,
    );
  });

  it('names columns and prints numbers as spreadsheets show them', () => {
    assert.deepEqual(['A', 'Z', 'AA', 'AZ'].map(columnIndex), [0, 25, 26, 51]);
    assert.deepEqual([20250929, 1.5, -3].map(numberText), ['20250929', '1.5', '-3']);
  });
});

describe('.xlsx with deflated parts, as Excel and LibreOffice write them (no ../shared needed)', () => {
  const rows = [
    ['BC-Nr', 'Bankname'],
    ['99001', 'Synthetische Testbank Zürich'],
    ['99002', 'Synthetische Testbank Genève'],
  ];
  /** Offsets of every central directory entry, found by its signature (independent of the reader). */
  const centralEntries = (bytes: Uint8Array) => {
    const buffer = Buffer.from(bytes);
    const offsets: number[] = [];
    for (
      let at = buffer.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      at >= 0;
      at = buffer.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)
    )
      offsets.push(at);
    return { buffer, offsets };
  };

  it('reads the same rows as from stored parts, and every part is really deflated (method 8)', () => {
    const deflated = writeXlsx(rows, 'deflate');
    const { buffer, offsets } = centralEntries(deflated);
    assert.equal(offsets.length, 6);
    for (const at of offsets) assert.equal(buffer.readUInt16LE(at + 10), 8);
    assert.deepEqual(readFirstSheet(deflated, 'Test workbook').rows, rows);
    assert.deepEqual(
      readFirstSheet(deflated, 'Test workbook').rows,
      readFirstSheet(writeXlsx(rows), 'Test workbook').rows,
    );
  });

  it('rejects a part whose DEFLATE data is damaged', () => {
    const bytes = writeXlsx(rows, 'deflate');
    const { buffer, offsets } = centralEntries(bytes);
    // The last part (shared strings): fill its compressed data with an invalid block type (0b11).
    const at = offsets.at(-1) ?? 0;
    const local = buffer.readUInt32LE(at + 42);
    const start = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    buffer.fill(0xff, start, start + buffer.readUInt32LE(at + 20));
    rejects(new Uint8Array(buffer), /line 1: unreadable workbook: .*does not inflate/);
  });

  it('rejects a part that inflates to more than its declared size (the zip-bomb guard)', () => {
    const { buffer, offsets } = centralEntries(writeXlsx(rows, 'deflate'));
    for (const at of offsets) buffer.writeUInt32LE(1, at + 24);
    rejects(new Uint8Array(buffer), /line 1: unreadable workbook: .*does not inflate/);
  });
});

describe('the .xls (BIFF8) reader on synthetic workbooks (no ../shared needed)', () => {
  it('reads every cell kind as a spreadsheet shows it: shared strings, labels, numbers, RK, booleans, formula results', () => {
    const bytes = writeXls(
      'Bankenstamm',
      [
        [{ sst: 'BC-Nr' }, { sst: 'Bankname' }, { sst: 'Ort' }],
        [{ rkInt: 99001 }, { sst: 'Synthetische Testbank' }, { label: 'Zürich' }],
        [{ number: 1.5 }, { rkInt: 1234, cents: true }, { number: 20250929 }],
        [],
        [null, { bool: true }, { bool: false }],
        [{ formulaNumber: -3 }, { formulaString: 'Genève' }, { formulaBool: true }],
      ],
      [{ row: 6, firstColumn: 1, integers: [7, 8, 9] }],
    );
    const sheet = readFirstSheet(bytes, 'Test workbook');
    assert.equal(sheet.name, 'Bankenstamm');
    assert.deepEqual(sheet.rows, [
      ['BC-Nr', 'Bankname', 'Ort'],
      ['99001', 'Synthetische Testbank', 'Zürich'],
      ['1.5', '12.34', '20250929'],
      [],
      ['', '1', '0'],
      ['-3', 'Genève', '1'],
      ['', '7', '8', '9'],
    ]);
  });

  it('reads a shared string table that continues over CONTINUE records, split inside one- and two-byte strings', () => {
    // 700 strings of 20-25 characters: about 16 KB, so the SST spans three records and strings are cut mid-way.
    const texts = Array.from({ length: 700 }, (_, i) =>
      i % 3 === 0 ? `Łódź synthetic ${i} 銀行` : `Synthetic bank number ${i}`,
    );
    const sheet = readFirstSheet(
      writeXls(
        'S',
        texts.map((text) => [{ sst: text }]),
      ),
      'Test workbook',
    );
    assert.deepEqual(
      sheet.rows,
      texts.map((text) => [text]),
    );
  });

  it('rejects the synthetic .xls cut short and a compound file without a Workbook stream', () => {
    const bytes = writeXls('S', [[{ sst: 'a' }]]);
    rejects(bytes.subarray(0, bytes.length - 4096), /line 1: unreadable workbook/);
    const noWorkbook = Uint8Array.from(bytes);
    noWorkbook.set(Buffer.from('Wxrkbook', 'utf16le'), 1024 + 128);
    rejects(noWorkbook, /line 1: unreadable workbook: no BIFF8 Workbook stream/);
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
