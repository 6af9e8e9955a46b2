/** Helpers every importer shares: the error shape, text decoding, BIC normalization, record defaults. */
import { AppError } from '../../errors.js';
import type {
  DomesticCode,
  ParentLink,
  RecordType,
  RegistryAddress,
  RegistryRecord,
  Successor,
} from '../record.js';

/** Malformed input: `<file kind> line N: <what is wrong>`, N 1-based. Importers never return a partial snapshot. */
export function invalidInput(kind: string, line: number, what: string): AppError {
  return new AppError('invalid_argument', `${kind} line ${line}: ${what}`);
}

/** Same error for formats without lines (JSON / XML): the 1-based record number stands in for the line. */
export function invalidRecord(kind: string, record: number, what: string): AppError {
  return new AppError('invalid_argument', `${kind} record ${record}: ${what}`);
}

export type TextEncoding = 'auto' | 'utf-8' | 'latin1';

const UTF8_BOM = '\uFEFF';

/**
 * Publishers ship ISO-8859-1 (Bundesbank, OeNB originals) while mirrors re-encode to UTF-8. 'auto' tries
 * strict UTF-8 first: Latin-1 umlauts are never valid UTF-8 sequences in these files, so a decoding failure
 * reliably means ISO-8859-1. A forced 'utf-8' that fails is a wrong-encoding error.
 */
export function decodeText(bytes: Uint8Array, encoding: TextEncoding, kind: string): string {
  if (encoding === 'latin1') return latin1(bytes);
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.startsWith(UTF8_BOM) ? text.slice(1) : text;
  } catch {
    if (encoding === 'utf-8')
      throw invalidInput(kind, lineOfFirstInvalidUtf8(bytes), 'not valid UTF-8');
    return latin1(bytes);
  }
}

/** Chunk size for String.fromCharCode: stays far below engines' argument-count limits. */
const LATIN1_CHUNK = 8192;

/**
 * True ISO-8859-1 (every byte is the code point of the same value). TextDecoder('latin1') is really
 * windows-1252 and would turn 0x80-0x9F into other characters.
 */
export function latin1(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += LATIN1_CHUNK) {
    text += String.fromCharCode(...bytes.subarray(i, i + LATIN1_CHUNK));
  }
  return text;
}

function lineOfFirstInvalidUtf8(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    try {
      decoder.decode(bytes.subarray(start, i));
    } catch {
      return line;
    }
    line++;
    start = i + 1;
  }
  return line;
}

/** JSON.parse that reports malformed input as `<kind> line N: invalid JSON: ...`. */
export function parseJson(text: string, kind: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    const line = text.slice(0, jsonErrorOffset(text)).split('\n').length;
    throw invalidInput(kind, line, `invalid JSON: ${(cause as Error).message}`);
  }
}

/** V8 messages for a document that is merely cut short, as every prefix of valid JSON is. */
function isIncompleteJson(message: string, length: number): boolean {
  if (/end of JSON input|Unterminated string/.test(message)) return true;
  const position = /position (\d+)/.exec(message);
  return position?.[1] !== undefined && Number(position[1]) >= length;
}

/**
 * Where JSON goes wrong. Node 20 does not always say (e.g. "Unexpected token ','"), so this finds the
 * shortest prefix that is wrong rather than incomplete, by bisection: prefixes below the error are
 * incomplete, prefixes past it are wrong. Only runs on the error path.
 */
function jsonErrorOffset(text: string): number {
  let incomplete = 0;
  let wrong = text.length;
  while (wrong - incomplete > 1) {
    const middle = Math.floor((incomplete + wrong) / 2);
    let broken = false;
    try {
      JSON.parse(text.slice(0, middle));
    } catch (error) {
      broken = !isIncompleteJson((error as Error).message, middle);
    }
    if (broken) wrong = middle;
    else incomplete = middle;
  }
  return wrong;
}

/** Lines without their CR/LF. A final line break is normal; any other empty line is kept for the caller to reject. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const BIC_PATTERN = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/;

/** Upper-case, whitespace removed; anything that is not then an 8- or 11-character BIC is no BIC (null). */
export function normalizeBic(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const compact = raw.replace(/\s+/g, '').toUpperCase();
  return BIC_PATTERN.test(compact) ? compact : null;
}

export function blankToNull(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** 'DD.MM.YYYY' or 'DD/MM/YYYY' -> 'YYYY-MM-DD', or null when the text is no such date. */
export function isoFromDayMonthYear(text: string): string | null {
  const match = /^(\d{2})[./](\d{2})[./](\d{4})$/.exec(text.trim());
  if (!match) return null;
  const [, day, month, year] = match;
  return validIso(`${year}-${month}-${day}`);
}

/** 'YYYYMMDD' -> 'YYYY-MM-DD', or null. */
export function isoFromCompact(text: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const [, year, month, day] = match;
  return validIso(`${year}-${month}-${day}`);
}

function validIso(iso: string): string | null {
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso ? iso : null;
}

export function maxIso(dates: Iterable<string | null>): string | null {
  let max: string | null = null;
  for (const date of dates) if (date !== null && (max === null || date > max)) max = date;
  return max;
}

export const emptyAddress: RegistryAddress = {
  street: null,
  postal_code: null,
  city: null,
  region: null,
};

export interface RecordInit {
  readonly source_id: string;
  readonly record_key: string;
  readonly record_type: RecordType;
  readonly country_code: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly legal_name?: string | null;
  readonly short_name?: string | null;
  readonly bic?: string | null;
  readonly lei?: string | null;
  readonly domestic_codes?: readonly DomesticCode[];
  readonly address?: RegistryAddress;
  readonly entity_status?: string | null;
  readonly registration_status?: string | null;
  readonly account_checksum_method?: string | null;
  readonly parents?: readonly ParentLink[];
  readonly successor?: Successor | null;
  readonly deletion_planned?: boolean;
}

/** A full record with the fields a source does not publish set to null / empty. */
export function makeRecord(init: RecordInit): RegistryRecord {
  return {
    legal_name: null,
    short_name: null,
    bic: null,
    lei: null,
    domestic_codes: [],
    address: emptyAddress,
    entity_status: null,
    registration_status: null,
    account_checksum_method: null,
    parents: [],
    successor: null,
    deletion_planned: false,
    ...init,
  };
}

/** Tracks record keys; a repeated key is malformed input (the store keys on it). */
export class KeyRegistry {
  private readonly seen = new Map<string, number>();
  constructor(
    private readonly kind: string,
    private readonly unit: 'line' | 'record' = 'line',
  ) {}

  claim(key: string, position: number): void {
    const first = this.seen.get(key);
    if (first !== undefined) {
      const what = `duplicate key ${key} (first at ${this.unit} ${first})`;
      throw this.unit === 'line'
        ? invalidInput(this.kind, position, what)
        : invalidRecord(this.kind, position, what);
    }
    this.seen.set(key, position);
  }
}
