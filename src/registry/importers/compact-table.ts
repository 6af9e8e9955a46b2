/**
 * The compact tables the project ships in data/: UTF-8, optionally gzip-compressed, one header line naming the
 * columns, then one tab-separated line per row. No quoting: the writer refuses a value with a tab or line
 * break, so splitting is exact. Read by the embedded default and by the importers that accept these tables.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { decodeText, invalidInput, splitLines } from './common.js';
import { tableRows, type TableRow } from './table-rows.js';

const GZIP_MAGIC = [0x1f, 0x8b] as const;
const SEPARATOR = '\t';

export function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
}

/** The text of a table file, gunzipped when it starts with the gzip magic bytes. */
export function tableText(bytes: Uint8Array, kind: string): string {
  let raw: Uint8Array = bytes;
  if (isGzip(bytes)) {
    try {
      raw = gunzipSync(bytes);
    } catch (cause) {
      throw invalidInput(kind, 1, `not a readable gzip file: ${(cause as Error).message}`);
    }
  }
  return decodeText(raw, 'utf-8', kind);
}

/** Rows of a compact table whose header must name exactly `columns` (line numbers 1-based, header = 1). */
export function readCompactTable(
  bytes: Uint8Array,
  kind: string,
  columns: readonly string[],
): TableRow[] {
  const lines = splitLines(tableText(bytes, kind)).map((line) => line.split(SEPARATOR));
  return tableRows(kind, lines, 0, columns);
}

/** Header + rows -> gzip bytes (deterministic: node's gzip header carries no time stamp). */
export function writeCompactTable(
  columns: readonly string[],
  rows: readonly (readonly string[])[],
): Uint8Array {
  const lines = [columns, ...rows].map((cells, index) => {
    cells.forEach((cell) => {
      if (/[\t\r\n]/.test(cell))
        throw new Error(`row ${index}: value ${JSON.stringify(cell)} holds a tab or line break`);
    });
    return cells.join(SEPARATOR);
  });
  return gzipSync(`${lines.join('\n')}\n`, { level: 9 });
}
