/** Header-checked rows of a spreadsheet: each data row becomes { column name -> trimmed cell text }. */
import { invalidInput } from './common.js';

export interface TableRow {
  /** 1-based row number in the spreadsheet, for error messages. */
  readonly line: number;
  readonly fields: Record<string, string>;
}

/**
 * Checks that row `headerIndex` (0-based) names exactly `columns`, then maps every later non-empty row.
 * Cells beyond the header are malformed input: they would be data without a column name.
 */
export function tableRows(
  kind: string,
  rows: readonly (readonly string[])[],
  headerIndex: number,
  columns: readonly string[],
): TableRow[] {
  const header = (rows[headerIndex] ?? []).map((cell) => cell.trim());
  while (header.length > 0 && header[header.length - 1] === '') header.pop();
  if (header.join('|') !== columns.join('|')) {
    throw invalidInput(
      kind,
      headerIndex + 1,
      `missing header "${columns.slice(0, 3).join(', ')}, ..." (found "${header.slice(0, 3).join(', ')}")`,
    );
  }
  const result: TableRow[] = [];
  for (let index = headerIndex + 1; index < rows.length; index++) {
    const cells = rows[index] ?? [];
    if (cells.every((cell) => cell.trim() === '')) continue;
    const extra = cells.slice(columns.length).findIndex((cell) => cell.trim() !== '');
    if (extra >= 0)
      throw invalidInput(
        kind,
        index + 1,
        `value in column ${columns.length + extra + 1}, which has no header`,
      );
    const fields: Record<string, string> = {};
    columns.forEach((column, i) => {
      fields[column] = (cells[i] ?? '').trim();
    });
    result.push({ line: index + 1, fields });
  }
  return result;
}
