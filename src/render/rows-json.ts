/**
 * JSON for arrays of flat row objects, byte-identical to JSON.stringify (same key order, same escaping,
 * undefined skipped), but nested objects and arrays that rows share (a bank's bank_intelligence, the
 * locked_fields list) are serialized once and reused by identity. Measured on 100 validation rows of a
 * paid key (bench/RESULTS.md): JSON.stringify was the largest single cost of POST /validate.
 * Only FROZEN nested values are cached: shared values are frozen by their owners; per-request objects are
 * serialized directly instead of filling the WeakMap with entries that die with the request.
 */
import { limits } from '../limits.js';

/** `"key":` for a row's first key, and `,"key":` for the others: two maps, so no key can collide with a marker. */
const firstKeyFragments = new Map<string, string>();
const nextKeyFragments = new Map<string, string>();
const sharedFragments = new WeakMap<object, string>();
/** Characters JSON must escape, plus lone surrogates, which JSON.stringify writes as \u escapes. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point: JSON escapes them
const needsEscape = /["\\\u0000-\u001f\ud800-\udfff]/;

function keyFragment(key: string, first: boolean): string {
  const fragments = first ? firstKeyFragments : nextKeyFragments;
  let fragment = fragments.get(key);
  if (fragment === undefined) {
    fragment = `${first ? '' : ','}${JSON.stringify(key)}:`;
    if (fragments.size < limits.renderKeyFragmentsMax) fragments.set(key, fragment);
  }
  return fragment;
}

function stringJson(value: string): string {
  return needsEscape.test(value) ? JSON.stringify(value) : `"${value}"`;
}

function valueJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return stringJson(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value) && !Object.isFrozen(value)) return arrayJson(value);
      if (!Object.isFrozen(value)) return JSON.stringify(value);
      let fragment = sharedFragments.get(value);
      if (fragment === undefined) {
        fragment = JSON.stringify(value);
        sharedFragments.set(value, fragment);
      }
      return fragment;
    }
    default:
      return undefined; // undefined, functions, symbols: skipped, as JSON.stringify skips them in objects
  }
}

/** A per-request array (lookup matches) whose elements may be shared frozen values; holes and undefined are null, as in JSON.stringify. */
function arrayJson(values: readonly unknown[]): string {
  let out = '[';
  for (let index = 0; index < values.length; index++) {
    if (index > 0) out += ',';
    out += valueJson(values[index]) ?? 'null';
  }
  return `${out}]`;
}

function rowJson(row: Record<string, unknown>): string {
  let out = '{';
  let first = true;
  for (const key in row) {
    const json = valueJson(row[key]);
    if (json === undefined) continue;
    out += keyFragment(key, first) + json;
    first = false;
  }
  return `${out}}`;
}

/** Rows must be plain objects; frozen nested values are cached by identity (frozen: they cannot change). */
export function rowsJson(rows: readonly unknown[]): string {
  let out = '[';
  for (let index = 0; index < rows.length; index++) {
    if (index > 0) out += ',';
    const row = rows[index];
    out += row !== null && typeof row === 'object' && !Array.isArray(row) ? rowJson(row as Record<string, unknown>) : JSON.stringify(row);
  }
  return `${out}]`;
}
