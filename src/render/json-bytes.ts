/**
 * JSON as UTF-8 bytes, byte-identical to Buffer.from(JSON.stringify(value)), for the answers REST sends.
 *
 * Why bytes and not a string: a 100-row validation answer (~35-47 KB) built as a string is a rope that
 * uWS must flatten and encode to UTF-8 on every send. Measured on the 2-core VM (tinybench, medians):
 * serializing 100 validation rows to a string took ~38 µs and encoding that rope to UTF-8 another
 * ~60 µs, and a bare uWS server spent 73 µs of CPU per request answering a flat 47 KB string against
 * 26 µs answering the same bytes from a Buffer. Here strings are encoded in JS as they are written,
 * what rows share (key fragments, frozen nested values such as a bank's bank_intelligence, a row's
 * cached tail) is encoded once and copied, and the bytes go to uWS as a view of one reused buffer.
 */

import { WrittenJson } from './answer-buffer.js';

/** Grows once to the largest answer seen; 64 KiB holds a 100-row validation answer without growing. */
const scratchInitialBytes = 64 * 1024;
let scratch = Buffer.allocUnsafeSlow(scratchInitialBytes);
let at = 0;

const firstKeyBytes = new Map<string, Uint8Array>();
const nextKeyBytes = new Map<string, Uint8Array>();
const sharedBytes = new WeakMap<object, Uint8Array>();
/** Key fragments are cached per distinct key; rows have a few dozen keys at most, so bound it generously. */
const keyFragmentsMax = 10_000;

const literal = (text: string): Uint8Array => Buffer.from(text, 'utf8');
const trueBytes = literal('true');
const falseBytes = literal('false');
const nullBytes = literal('null');

function reserve(bytes: number): void {
  if (at + bytes <= scratch.length) return;
  const grown = Buffer.allocUnsafeSlow(Math.max(scratch.length * 2, at + bytes));
  scratch.copy(grown, 0, 0, at);
  scratch = grown;
}

function byte(code: number): void {
  reserve(1);
  scratch[at++] = code;
}

/** Fragments are short: a JS loop copies them faster than Uint8Array#set, whose call costs more than the copy. */
const loopCopyBytesMax = 64;

function bytes(chunk: Uint8Array): void {
  const length = chunk.length;
  reserve(length);
  if (length > loopCopyBytesMax) {
    scratch.set(chunk, at);
    at += length;
    return;
  }
  for (let index = 0; index < length; index++) scratch[at++] = chunk[index] as number;
}

/** Any string through the encoder: the general path (escaped strings, objects JSON.stringify wrote). */
function encoded(text: string): void {
  reserve(text.length * 3);
  at += scratch.write(text, at, 'utf8');
}

/**
 * A JSON string literal, UTF-8 encoded in JS (most are short: IBANs, codes, names). What JSON.stringify
 * escapes (control characters, quote, backslash, lone surrogates) sends the whole string to JSON.stringify.
 */
function stringValue(text: string): void {
  const length = text.length;
  reserve(length * 3 + 2);
  const start = at;
  scratch[at++] = 0x22;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) {
      if (code < 0x20 || code === 0x22 || code === 0x5c) return escapedString(text, start);
      scratch[at++] = code;
    } else if (code < 0x800) {
      scratch[at++] = 0xc0 | (code >> 6);
      scratch[at++] = 0x80 | (code & 0x3f);
    } else if (code < 0xd800 || code > 0xdfff) {
      scratch[at++] = 0xe0 | (code >> 12);
      scratch[at++] = 0x80 | ((code >> 6) & 0x3f);
      scratch[at++] = 0x80 | (code & 0x3f);
    } else {
      const low = text.charCodeAt(index + 1);
      if (code > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) return escapedString(text, start);
      const point = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
      scratch[at++] = 0xf0 | (point >> 18);
      scratch[at++] = 0x80 | ((point >> 12) & 0x3f);
      scratch[at++] = 0x80 | ((point >> 6) & 0x3f);
      scratch[at++] = 0x80 | (point & 0x3f);
      index++;
    }
  }
  scratch[at++] = 0x22;
}

function escapedString(text: string, start: number): void {
  at = start;
  encoded(JSON.stringify(text));
}

/** Digits, sign, point, exponent: String(number) is ASCII. */
function asciiText(text: string): void {
  reserve(text.length);
  for (let index = 0; index < text.length; index++) scratch[at++] = text.charCodeAt(index);
}

function keyFragment(key: string, first: boolean): Uint8Array {
  const fragments = first ? firstKeyBytes : nextKeyBytes;
  let fragment = fragments.get(key);
  if (fragment === undefined) {
    fragment = literal(`${first ? '' : ','}${JSON.stringify(key)}:`);
    if (fragments.size < keyFragmentsMax) fragments.set(key, fragment);
  }
  return fragment;
}

/** The encoded JSON of a frozen value, cached by identity: frozen values cannot change. */
export function frozenJsonBytes(value: object): Uint8Array {
  let fragment = sharedBytes.get(value);
  if (fragment === undefined) {
    fragment = literal(JSON.stringify(value));
    sharedBytes.set(value, fragment);
  }
  return fragment;
}

/** Writes a value as JSON.stringify would inside an object; false when JSON.stringify would skip it. */
function value(item: unknown): boolean {
  switch (typeof item) {
    case 'string':
      stringValue(item);
      return true;
    case 'boolean':
      bytes(item ? trueBytes : falseBytes);
      return true;
    case 'number':
      if (Number.isFinite(item)) asciiText(String(item));
      else bytes(nullBytes);
      return true;
    case 'object':
      if (item === null) bytes(nullBytes);
      else if (Array.isArray(item) && !Object.isFrozen(item)) array(item);
      else if (Object.isFrozen(item)) bytes(frozenJsonBytes(item));
      else encoded(JSON.stringify(item));
      return true;
    default:
      return false; // undefined, functions, symbols: skipped, as JSON.stringify skips them in objects
  }
}

/** A per-request array whose elements may be shared frozen values; holes and skipped values are null. */
function array(items: readonly unknown[]): void {
  byte(0x5b);
  for (let index = 0; index < items.length; index++) {
    if (index > 0) byte(0x2c);
    if (!value(items[index])) bytes(nullBytes);
  }
  byte(0x5d);
}

/**
 * A row array may carry precomputed tails, one per row (or undefined): the JSON of the row's last keys,
 * encoded once and shared by every row with the same values (a bank's fields at one visibility). A tail
 * names the row's head keys, written as usual; its bytes start with the comma after them and end with
 * the row's closing brace. Kept on the array, not on each row: one hidden property per answer.
 */
export const rowTails: unique symbol = Symbol('row tails');
export interface RowTail {
  readonly headKeys: readonly string[];
  readonly bytes: Uint8Array;
}
export interface TailedRows {
  readonly [rowTails]: readonly (RowTail | undefined)[];
}

/** Hides the tails on the array (not enumerable: a copy, a map or a worker transfer drops them). */
export function withRowTails<T extends unknown[]>(
  rows: T,
  tails: readonly (RowTail | undefined)[],
): T {
  Object.defineProperty(rows, rowTails, { value: tails });
  return rows;
}

function row(item: Record<string, unknown>, tail: RowTail | undefined): void {
  byte(0x7b);
  let first = true;
  if (tail !== undefined) {
    for (const key of tail.headKeys) if (field(key, item[key], first)) first = false;
    bytes(tail.bytes);
    return;
  }
  for (const key in item) if (field(key, item[key], first)) first = false;
  byte(0x7d);
}

function field(key: string, item: unknown, first: boolean): boolean {
  const mark = at;
  bytes(keyFragment(key, first));
  if (value(item)) return true;
  at = mark;
  return false;
}

function rows(items: readonly unknown[]): void {
  const tails = (items as Partial<TailedRows>)[rowTails];
  byte(0x5b);
  for (let index = 0; index < items.length; index++) {
    if (index > 0) byte(0x2c);
    const item = items[index];
    if (item !== null && typeof item === 'object' && !Array.isArray(item))
      row(item as Record<string, unknown>, tails?.[index]);
    else if (!value(item)) bytes(nullBytes);
  }
  byte(0x5d);
}

/** Top-level: arrays are rows; an object's array fields are rows too (an envelope around rows). */
function output(item: unknown): void {
  if (Array.isArray(item)) return rows(item);
  if (item === null || typeof item !== 'object') return encoded(JSON.stringify(item) ?? 'null');
  byte(0x7b);
  let first = true;
  for (const [key, field] of Object.entries(item)) {
    if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
    bytes(keyFragment(key, first));
    first = false;
    if (Array.isArray(field)) rows(field);
    else encoded(JSON.stringify(field));
  }
  byte(0x7d);
}

/**
 * The JSON of an op's output as a view of the shared scratch: valid only until the next call, so the caller
 * hands it on synchronously (uWS's end() copies the body). No allocation per answer.
 */
export function outputJsonView(item: unknown): Uint8Array {
  // An op's runJson answer writes itself (into its own reused buffer, with the same validity).
  if (item instanceof WrittenJson) return item.jsonView();
  at = 0;
  output(item);
  return scratch.subarray(0, at);
}

/** The same bytes as a Buffer of their own (a worker's rendered answer, which crosses threads). */
export function outputJsonBytes(item: unknown): Buffer {
  return Buffer.from(outputJsonView(item));
}
