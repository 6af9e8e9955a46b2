/**
 * Fixed-width field tables (Bundesbank, FedACH, Fedwire). Positions are 1-based and inclusive as the
 * publishers document them; slicing is by characters of the DECODED line, never by bytes (a UTF-8 umlaut
 * is two bytes but one column).
 */
import { assert } from '../../assert.js';
import { invalidInput } from './common.js';

export interface FieldSpec {
  readonly name: string;
  /** 1-based first character, as in the publisher's documentation. */
  readonly position: number;
  readonly width: number;
  /** A value as it appears in the documentation or a real file: documents the table, checked by tests. */
  readonly example: string;
}

export interface FieldTable {
  readonly kind: string;
  readonly lineWidth: number;
  readonly fields: readonly FieldSpec[];
}

/** Builds a table and proves it tiles the line: no gap, no overlap, ends exactly at the line width. */
export function fieldTable(
  kind: string,
  lineWidth: number,
  fields: readonly FieldSpec[],
): FieldTable {
  let next = 1;
  for (const field of fields) {
    assert(
      field.position === next,
      `${kind}: field ${field.name} starts at ${field.position}, expected ${next}`,
    );
    assert(
      field.example.length <= field.width,
      `${kind}: example of ${field.name} is wider than the field`,
    );
    next += field.width;
  }
  assert(
    next - 1 === lineWidth,
    `${kind}: fields cover ${next - 1} characters, line has ${lineWidth}`,
  );
  return { kind, lineWidth, fields };
}

/** Slices one line into trimmed values; a line of the wrong width is malformed input. */
export function sliceFields(
  table: FieldTable,
  line: string,
  lineNumber: number,
): Record<string, string> {
  const length = [...line].length;
  if (length !== table.lineWidth) {
    const what = length < table.lineWidth ? 'truncated line' : 'line too long';
    throw invalidInput(
      table.kind,
      lineNumber,
      `${what}: ${length} characters, expected ${table.lineWidth}`,
    );
  }
  // Code points, not UTF-16 units: an astral character must still count as one column.
  const chars = length === line.length ? null : [...line];
  const values: Record<string, string> = {};
  for (const field of table.fields) {
    const start = field.position - 1;
    const raw =
      chars === null
        ? line.slice(start, start + field.width)
        : chars.slice(start, start + field.width).join('');
    values[field.name] = raw.trim();
  }
  return values;
}
