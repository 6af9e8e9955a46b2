/**
 * What the GLEIF importers (LEI-CDF, RR-CDF) share: LEI check digits, reading JSON or XML into one tree
 * shape ({ "$": text, "@attr": value }, as GLEIF's own JSON), and flattening a record into `fields`.
 */
import type { ParsedSnapshot, RegistryRecord, SourceInfo } from '../record.js';
import { invalidInput, KeyRegistry, parseJson } from './common.js';
import {
  child,
  isXmlObject,
  parseXml,
  TEXT_KEY,
  textOf,
  type XmlNode,
  type XmlObject,
} from './xml.js';

const LEI_PATTERN = /^[0-9A-Z]{18}[0-9]{2}$/;
/** ISO 17442 check digits: letters become 10..35, and the whole number mod 97 must be 1 (as in ISO 7064 MOD 97-10). */
const LEI_MODULUS = 97n;

export function isValidLei(lei: string): boolean {
  if (!LEI_PATTERN.test(lei)) return false;
  const digits = [...lei].map((ch) => parseInt(ch, 36).toString()).join('');
  return BigInt(digits) % LEI_MODULUS === 1n;
}

/** The document root, from GLEIF JSON or XML (namespace prefixes dropped, 'xml:lang' kept by that name). */
export function readGleifTree(
  bytes: Uint8Array,
  kind: string,
  arrayTags: ReadonlySet<string>,
): { root: XmlObject; format: 'json' | 'xml' } {
  const text = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
  const first = text.trimStart()[0];
  if (first === '{') {
    return { root: parseJson(text, kind) as XmlObject, format: 'json' };
  }
  if (first !== '<') throw invalidInput(kind, 1, 'neither JSON nor XML');
  const parsed = parseXml(text, arrayTags);
  if ('error' in parsed) throw invalidInput(kind, parsed.line, `invalid XML: ${parsed.error}`);
  return { root: parsed.root, format: 'xml' };
}

/** Trimmed text at a path of element names, or null when absent or blank. */
export function textAt(node: XmlNode | undefined, ...path: string[]): string | null {
  let current = node;
  for (const name of path) current = child(current, name);
  const text = textOf(current)?.trim() ?? '';
  return text === '' ? null : text;
}

/** The XML parser names the 'xml:lang' attribute '@lang'; GLEIF JSON calls it '@xml:lang'. */
function attributeName(key: string): string {
  return key === '@lang' ? '@xml:lang' : key;
}

/**
 * Flattens a record into dotted paths: 'Entity.LegalName' -> text, 'Entity.LegalName@xml:lang' -> 'en',
 * repeated elements as 'OtherEntityName[0]'. Whitespace between XML elements is not text.
 */
export function flattenRecord(
  node: XmlNode,
  prefix = '',
  out: Record<string, string> = {},
): Record<string, string> {
  if (typeof node === 'string') {
    if (prefix !== '') out[prefix] = node.trim();
    return out;
  }
  if (Array.isArray(node)) {
    node.forEach((item, index) => flattenRecord(item, `${prefix}[${index}]`, out));
    return out;
  }
  const hasChildren = Object.keys(node).some((key) => key !== TEXT_KEY && !key.startsWith('@'));
  for (const [key, value] of Object.entries(node)) {
    if (value === undefined) continue;
    if (key === TEXT_KEY) {
      const text = typeof value === 'string' ? value.trim() : '';
      if (!(hasChildren && text === '')) out[prefix] = text;
    } else if (key.startsWith('@')) {
      out[`${prefix}${attributeName(key)}`] =
        typeof value === 'string' ? value : JSON.stringify(value);
    } else {
      flattenRecord(
        isXmlObject(value) || Array.isArray(value) || typeof value === 'string'
          ? value
          : String(value),
        prefix === '' ? key : `${prefix}.${key}`,
        out,
      );
    }
  }
  return out;
}

/** Items of a GLEIF file -> a snapshot: one record per item, record keys unique (the 1-based item number names a duplicate). */
export function gleifSnapshot(
  source: SourceInfo,
  kind: string,
  items: readonly XmlNode[],
  snapshotDate: string | null,
  toRecord: (item: XmlNode, itemNumber: number) => RegistryRecord,
): ParsedSnapshot {
  const keys = new KeyRegistry(kind, 'record');
  const records = items.map((item, index) => {
    const record = toRecord(item, index + 1);
    keys.claim(record.record_key, index + 1);
    return record;
  });
  return {
    source_id: source.source_id,
    source,
    snapshot_date: snapshotDate,
    records,
    row_count: records.length,
    ignored_fields: [],
  };
}
