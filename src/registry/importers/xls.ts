/**
 * Legacy Excel 97-2003 (.xls, BIFF8) reader: the Workbook stream of the compound file, its shared string
 * table (SST with CONTINUE records) and the first worksheet's cell records. Formats are not applied:
 * a number cell comes back as its shortest decimal text, like a number in .xlsx.
 *
 * Hand-written on purpose (security): the one npm package that reads BIFF8, SheetJS `xlsx`, stops at 0.18.5 on
 * the npm registry, which carries two unfixed advisories for crafted input files: prototype pollution
 * (CVE-2023-30533, GHSA-4r6h-8v6p-xvw6, https://github.com/advisories/GHSA-4r6h-8v6p-xvw6, fixed in 0.19.3) and
 * ReDoS (CVE-2024-22363, GHSA-5pgg-2g8v-p4x9, https://github.com/advisories/GHSA-5pgg-2g8v-p4x9, fixed in
 * 0.20.2); the fixed versions are published only on cdn.sheetjs.com, not on npm. Registry files are fetched
 * from the network (`registry sync`), so they count as untrusted input. This reader holds no object keyed by
 * file content and uses no regular expression on it.
 */
import { CompoundFile } from './cfb.js';
import { latin1 } from './common.js';
import { numberText, RowBuilder, type Sheet } from './sheet-cells.js';

const RECORD = {
  BOF: 0x0809,
  EOF: 0x000a,
  BOUNDSHEET: 0x0085,
  SST: 0x00fc,
  CONTINUE: 0x003c,
  LABELSST: 0x00fd,
  LABEL: 0x0204,
  NUMBER: 0x0203,
  RK: 0x027e,
  MULRK: 0x00bd,
  FORMULA: 0x0006,
  STRING: 0x0207,
  BOOLERR: 0x0205,
} as const;
const BIFF8_VERSION = 0x0600;
const RECORD_HEADER = 4;
const SHEET_TYPE_WORKSHEET = 0;
/** A FORMULA whose result bytes 6-7 are 0xFFFF holds a non-number; byte 0 then says which kind. */
const FORMULA_NON_NUMBER = 0xffff;
const FORMULA_STRING = 0;
const FORMULA_BOOLEAN = 1;
const UTF16 = new TextDecoder('utf-16le');

interface BiffRecord {
  readonly type: number;
  readonly data: Uint8Array;
  readonly view: DataView;
}

export function readXls(bytes: Uint8Array): Sheet {
  const workbook = new CompoundFile(bytes).stream('Workbook');
  if (workbook === null)
    throw new Error('no BIFF8 Workbook stream (BIFF5 and older are not supported)');
  const globals = readGlobals(workbook);
  return {
    name: globals.sheetName,
    rows: readWorksheet(workbook, globals.sheetOffset, globals.strings),
  };
}

function* records(stream: Uint8Array, start: number): Generator<BiffRecord> {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  for (let offset = start; offset + RECORD_HEADER <= stream.length;) {
    const type = view.getUint16(offset, true);
    const length = view.getUint16(offset + 2, true);
    const begin = offset + RECORD_HEADER;
    if (begin + length > stream.length)
      throw new Error(`BIFF record 0x${type.toString(16)} is truncated`);
    const data = stream.subarray(begin, begin + length);
    yield { type, data, view: new DataView(data.buffer, data.byteOffset, data.byteLength) };
    offset = begin + length;
  }
}

interface Globals {
  readonly sheetName: string;
  readonly sheetOffset: number;
  readonly strings: readonly string[];
}

function readGlobals(stream: Uint8Array): Globals {
  let sheet: { name: string; offset: number } | null = null;
  let sst: Uint8Array[] = [];
  let inSst = false;
  let first = true;
  for (const record of records(stream, 0)) {
    if (first && (record.type !== RECORD.BOF || record.view.getUint16(0, true) !== BIFF8_VERSION))
      throw new Error('not a BIFF8 workbook');
    first = false;
    if (record.type === RECORD.CONTINUE && inSst) {
      sst.push(record.data);
      continue;
    }
    inSst = record.type === RECORD.SST;
    if (inSst) {
      // Skip the total and unique counts: the strings themselves say where they end.
      sst = [record.data.subarray(8)];
    } else if (
      record.type === RECORD.BOUNDSHEET &&
      sheet === null &&
      record.data[5] === SHEET_TYPE_WORKSHEET
    ) {
      sheet = {
        offset: record.view.getUint32(0, true),
        name: new SegmentReader([record.data.subarray(6)]).shortString(),
      };
    } else if (record.type === RECORD.EOF) {
      return finish(sheet, readSst(sst));
    }
  }
  throw new Error('workbook globals have no EOF record');
}

function readSst(segments: readonly Uint8Array[]): string[] {
  const reader = new SegmentReader(segments);
  const strings: string[] = [];
  while (!reader.atEnd()) strings.push(reader.unicodeString());
  return strings;
}

function finish(
  sheet: { name: string; offset: number } | null,
  strings: readonly string[],
): Globals {
  if (sheet === null) throw new Error('workbook has no worksheet');
  return { sheetName: sheet.name, sheetOffset: sheet.offset, strings };
}

function readWorksheet(stream: Uint8Array, offset: number, strings: readonly string[]): string[][] {
  const builder = new RowBuilder();
  let pendingFormula: { row: number; column: number } | null = null;
  for (const record of records(stream, offset)) {
    const row = record.view.byteLength >= 4 ? record.view.getUint16(0, true) : 0;
    const column = record.view.byteLength >= 4 ? record.view.getUint16(2, true) : 0;
    switch (record.type) {
      case RECORD.EOF:
        return builder.build();
      case RECORD.FORMULA:
        pendingFormula = readFormula(record, row, column, builder);
        break;
      case RECORD.STRING:
        if (pendingFormula !== null)
          builder.set(
            pendingFormula.row,
            pendingFormula.column,
            new SegmentReader([record.data]).unicodeString(),
          );
        pendingFormula = null;
        break;
      default:
        readValueCell(record, row, column, strings, builder);
    }
  }
  throw new Error('worksheet has no EOF record');
}

/** A cell record that holds its value itself (or through the shared string table); other records are skipped. */
function readValueCell(
  record: BiffRecord,
  row: number,
  column: number,
  strings: readonly string[],
  builder: RowBuilder,
): void {
  switch (record.type) {
    case RECORD.LABELSST: {
      const text = strings[record.view.getUint32(6, true)];
      if (text === undefined)
        throw new Error(`cell ${row + 1}/${column + 1} points past the shared string table`);
      builder.set(row, column, text);
      break;
    }
    case RECORD.LABEL:
      builder.set(row, column, new SegmentReader([record.data.subarray(6)]).unicodeString());
      break;
    case RECORD.NUMBER:
      builder.set(row, column, numberText(record.view.getFloat64(6, true)));
      break;
    case RECORD.RK:
      builder.set(row, column, numberText(rkValue(record.view.getUint32(6, true))));
      break;
    case RECORD.MULRK:
      readMulRk(record, row, column, builder);
      break;
    case RECORD.BOOLERR:
      if (record.data[7] === 0) builder.set(row, column, String(record.data[6]));
      break;
    default:
      break;
  }
}

function readMulRk(
  record: BiffRecord,
  row: number,
  firstColumn: number,
  builder: RowBuilder,
): void {
  const RK_CELL = 6;
  const count = (record.data.length - 6) / RK_CELL;
  for (let i = 0; i < count; i++) {
    builder.set(
      row,
      firstColumn + i,
      numberText(rkValue(record.view.getUint32(4 + i * RK_CELL + 2, true))),
    );
  }
}

/** Returns the cell awaiting a STRING record when the formula's cached result is text. */
function readFormula(
  record: BiffRecord,
  row: number,
  column: number,
  builder: RowBuilder,
): { row: number; column: number } | null {
  if (record.view.getUint16(12, true) !== FORMULA_NON_NUMBER) {
    builder.set(row, column, numberText(record.view.getFloat64(6, true)));
    return null;
  }
  const kind = record.data[6];
  if (kind === FORMULA_STRING) return { row, column };
  if (kind === FORMULA_BOOLEAN) builder.set(row, column, String(record.data[8]));
  return null;
}

/** RK: a 30-bit integer or the high 30 bits of a double, optionally scaled by 1/100. */
function rkValue(rk: number): number {
  const divided = (rk & 0x01) !== 0;
  let value: number;
  if ((rk & 0x02) !== 0) {
    value = rk >> 2;
  } else {
    const bytes = new DataView(new ArrayBuffer(8));
    bytes.setUint32(4, rk & 0xfffffffc, true);
    value = bytes.getFloat64(0, true);
  }
  return divided ? value / 100 : value;
}

/**
 * Reads across record boundaries. BIFF8 strings split by a CONTINUE restart their character data with a
 * fresh option byte (compressed Latin-1 or UTF-16LE), which `characters` honours.
 */
class SegmentReader {
  private segment = 0;
  private position = 0;

  constructor(private readonly segments: readonly Uint8Array[]) {}

  atEnd(): boolean {
    this.skipExhausted();
    return this.segment >= this.segments.length;
  }

  /** XLUnicodeRichExtendedString (SST, LABEL, STRING). */
  unicodeString(): string {
    const count = this.u16();
    const flags = this.byte();
    const runs = (flags & 0x08) !== 0 ? this.u16() : 0;
    const extended = (flags & 0x04) !== 0 ? this.u32() : 0;
    const text = this.characters(count, (flags & 0x01) !== 0);
    this.skip(runs * 4 + extended);
    return text;
  }

  /** ShortXLUnicodeString (sheet names): 8-bit count. */
  shortString(): string {
    const count = this.byte();
    return this.characters(count, (this.byte() & 0x01) !== 0);
  }

  private characters(count: number, wide: boolean): string {
    let text = '';
    let highByte = wide;
    while (count > 0) {
      const current = this.segments[this.segment];
      if (current === undefined) throw new Error('string runs past the end of its record');
      if (this.position >= current.length) {
        this.segment++;
        this.position = 0;
        highByte = (this.byte() & 0x01) !== 0;
        continue;
      }
      const available = highByte
        ? Math.floor((current.length - this.position) / 2)
        : current.length - this.position;
      const take = Math.min(count, available);
      const end = this.position + take * (highByte ? 2 : 1);
      const chunk = current.subarray(this.position, end);
      text += highByte ? UTF16.decode(chunk) : latin1(chunk);
      this.position = end;
      count -= take;
    }
    return text;
  }

  private skipExhausted(): void {
    while (
      this.segment < this.segments.length &&
      this.position >= (this.segments[this.segment]?.length ?? 0)
    ) {
      this.segment++;
      this.position = 0;
    }
  }

  private byte(): number {
    this.skipExhausted();
    const value = this.segments[this.segment]?.[this.position];
    if (value === undefined) throw new Error('record ends early');
    this.position++;
    return value;
  }

  private u16(): number {
    return this.byte() | (this.byte() << 8);
  }

  private u32(): number {
    return this.u16() + this.u16() * 0x10000;
  }

  private skip(count: number): void {
    for (let i = 0; i < count; i++) this.byte();
  }
}
