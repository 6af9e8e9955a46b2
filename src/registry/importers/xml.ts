/**
 * XML to plain objects via fast-xml-parser (well kept, synchronous, no native code), in the shape GLEIF uses
 * for its JSON: attributes under '@name', element text under '$'. Namespace prefixes are dropped so that
 * 'lei:LegalName' and 'LegalName' read alike.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export type XmlNode = string | XmlObject | XmlNode[];
export interface XmlObject {
  readonly [name: string]: XmlNode | undefined;
}

export const TEXT_KEY = '$';

/**
 * Parses XML; returns the validator's error (message and line) instead of throwing, so each importer can
 * report it in its own words. `arrayTags` are elements that repeat and must always come back as arrays.
 */
export function parseXml(
  text: string,
  arrayTags: ReadonlySet<string>,
): { readonly root: XmlObject } | { readonly error: string; readonly line: number } {
  const valid = XMLValidator.validate(text);
  if (valid !== true) return { error: valid.err.msg, line: valid.err.line };
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    textNodeName: TEXT_KEY,
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    // Text is kept as published (xml:space="preserve" in spreadsheets); callers trim where the format allows.
    trimValues: false,
    ignoreDeclaration: true,
    isArray: (tagName) => arrayTags.has(tagName),
  });
  return { root: parser.parse(text) as XmlObject };
}

export function isXmlObject(node: XmlNode | undefined): node is XmlObject {
  return typeof node === 'object' && node !== null && !Array.isArray(node);
}

export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return isXmlObject(node) ? node[name] : undefined;
}

/** Repeated children as an array whether the parser produced one node or many. */
export function children(node: XmlNode | undefined, name: string): XmlNode[] {
  const value = child(node, name);
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** An element's own text: a bare string, or the '$' of an element that also has attributes. */
export function textOf(node: XmlNode | undefined): string | null {
  if (typeof node === 'string') return node;
  const text = child(node, TEXT_KEY);
  return typeof text === 'string' ? text : isXmlObject(node) ? '' : null;
}
