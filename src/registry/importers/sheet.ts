/**
 * The first worksheet of an .xlsx (Office Open XML) or legacy .xls (BIFF8) workbook as rows of cell text.
 *
 * The .xls (BIFF8 in a compound file) reader is our own: the only npm package that reads .xls (SheetJS
 * xlsx@0.18.5, the last version on the npm registry) carries unfixed advisories for crafted files (prototype
 * pollution, CVE-2023-30533; ReDoS, CVE-2024-22363; see xls.ts for the advisory URLs), and exceljs (xlsx only)
 * is asynchronous and brings a large dependency tree. The .xlsx reader opens the ZIP with fflate (zip.ts) and
 * reads only the parts a sheet needs. Registry files are small, single-sheet and written by Excel or
 * LibreOffice; both readers support exactly what such files use and reject the rest.
 */
import { invalidInput } from './common.js';
import { readXls } from './xls.js';
import { readXlsx } from './xlsx.js';
import type { Sheet } from './sheet-cells.js';

export type { Sheet } from './sheet-cells.js';

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((byte, i) => bytes[i] === byte);
}

/** Reads the first worksheet; any structural damage becomes `<kind> line 1: ...` (the workbook as a whole is bad). */
export function readFirstSheet(bytes: Uint8Array, kind: string): Sheet {
  const reader = startsWith(bytes, ZIP_MAGIC)
    ? readXlsx
    : startsWith(bytes, CFB_MAGIC)
      ? readXls
      : null;
  if (reader === null) throw invalidInput(kind, 1, 'not an .xlsx or .xls workbook');
  try {
    return reader(bytes);
  } catch (cause) {
    throw invalidInput(kind, 1, `unreadable workbook: ${(cause as Error).message}`);
  }
}
