/**
 * Shared reading for the Federal Reserve E-Payments Routing Directories (FedACH, Fedwire): the fixed-width
 * text download and the official JSON shape, both mapped to the same field names (the JSON keys) so that
 * a text snapshot and a JSON snapshot diff field by field.
 */
import { AppError } from '../../errors.js';
import {
  decodeText,
  invalidInput,
  invalidRecord,
  KeyRegistry,
  parseJson,
  splitLines,
} from './common.js';
import { sliceFields, type FieldTable } from './fixed-width.js';

const RTN_PATTERN = /^\d{9}$/;
/** ABA routing-number check digit weights (digits 1-9), sum must be a multiple of 10. */
const ABA_WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const;
const ABA_MODULUS = 10;

export function isValidAbaRoutingNumber(rtn: string): boolean {
  if (!RTN_PATTERN.test(rtn)) return false;
  let sum = 0;
  for (let i = 0; i < ABA_WEIGHTS.length; i++) sum += Number(rtn[i]) * (ABA_WEIGHTS[i] ?? 0);
  return sum % ABA_MODULUS === 0;
}

export interface DirectoryRow {
  readonly position: number;
  readonly fields: Record<string, string>;
}

export interface DirectoryLayout {
  readonly kind: string;
  readonly table: FieldTable;
  /** Table fields that are padding, not data (FedACH positions 151-155). */
  readonly fillers: readonly string[];
  /** Top-level and list key of the JSON shape: { [jsonKey]: { response, [jsonKey]: [...] } }. */
  readonly jsonKey: string;
  /** Other JSON keys accepted for a field (the official FedACH sample spells institutionStatusCode 'statusCode' in half its records). */
  readonly jsonAliases?: Readonly<Record<string, readonly string[]>>;
}

/** Rows from either shape; the first non-blank character decides (JSON starts with '{'). */
export function readDirectory(
  bytes: Uint8Array,
  layout: DirectoryLayout,
): { rows: DirectoryRow[]; unit: 'line' | 'record' } {
  const text = decodeText(bytes, 'auto', layout.kind);
  const isJson = text.trimStart().startsWith('{');
  const rows = isJson ? jsonRows(text, layout) : textRows(text, layout);
  const unit = isJson ? 'record' : 'line';
  if (rows.length === 0)
    throw isJson
      ? invalidRecord(layout.kind, 1, 'no participants')
      : invalidInput(layout.kind, 1, 'no records');
  const keys = new KeyRegistry(layout.kind, unit);
  for (const row of rows) {
    const rtn = row.fields.routingNumber ?? '';
    if (!isValidAbaRoutingNumber(rtn))
      throw problem(
        layout.kind,
        unit,
        row.position,
        `routing number "${rtn}" fails the ABA check digit`,
      );
    keys.claim(rtn, row.position);
  }
  return { rows, unit };
}

function problem(kind: string, unit: 'line' | 'record', position: number, what: string): AppError {
  return unit === 'line' ? invalidInput(kind, position, what) : invalidRecord(kind, position, what);
}

function textRows(text: string, layout: DirectoryLayout): DirectoryRow[] {
  return splitLines(text).map((line, index) => {
    if (/[^\x20-\x7e]/.test(line))
      throw invalidInput(
        layout.kind,
        index + 1,
        'non-ASCII character; the directory is plain ASCII',
      );
    const fields = sliceFields(layout.table, line, index + 1);
    for (const filler of layout.fillers) delete fields[filler];
    return { position: index + 1, fields };
  });
}

function jsonRows(text: string, layout: DirectoryLayout): DirectoryRow[] {
  const parsed = parseJson(text, layout.kind);
  const outer = (parsed as Record<string, unknown> | null)?.[layout.jsonKey];
  const list = (outer as Record<string, unknown> | null | undefined)?.[layout.jsonKey];
  if (!Array.isArray(list)) throw invalidInput(layout.kind, 1, `missing "${layout.jsonKey}" list`);
  const names = layout.table.fields
    .map((field) => field.name)
    .filter((name) => !layout.fillers.includes(name));
  return list.map((item: unknown, index) => {
    const fields: Record<string, string> = {};
    for (const name of names) {
      const record = item as Record<string, unknown> | null;
      const value = [name, ...(layout.jsonAliases?.[name] ?? [])]
        .map((key) => record?.[key])
        .find((v) => v !== undefined);
      if (typeof value !== 'string')
        throw invalidRecord(layout.kind, index + 1, `field ${name} is missing or not a string`);
      fields[name] = value.trim();
    }
    return { position: index + 1, fields };
  });
}
