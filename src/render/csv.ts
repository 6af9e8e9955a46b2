import { writeToString } from 'fast-csv';
import type { CsvRendering } from '../contract/op.js';

/** RFC 4180 CSV with a header row, through fast-csv (quotes fields with separators, quotes or newlines). */
export function renderCsv<O>(rendering: CsvRendering<O>, output: O): Promise<string> {
  const rows = rendering.rows(output).map((row) => row.map((cell) => (cell === null ? '' : cell)));
  const headers = rendering.headersFor?.(output) ?? rendering.headers;
  return writeToString([headers as string[], ...rows], {
    headers: false,
    includeEndRowDelimiter: true,
  });
}
