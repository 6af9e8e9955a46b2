/**
 * Office Open XML (.xlsx) reader: workbook -> first sheet part -> cells, with shared and inline strings.
 * Cell text is returned as stored: shared/inline strings verbatim, numbers as their stored decimal text.
 */
import { columnIndex, RowBuilder, type Sheet } from './sheet-cells.js';
import { children, child, parseXml, textOf, type XmlNode, type XmlObject } from './xml.js';
import { ZipArchive } from './zip.js';

const WORKBOOK_PART = 'xl/workbook.xml';
const WORKBOOK_RELS_PART = 'xl/_rels/workbook.xml.rels';
const SHARED_STRINGS_PART = 'xl/sharedStrings.xml';
const ARRAY_TAGS = new Set(['sheet', 'Relationship', 'si', 'r', 'row', 'c']);
const CELL_REF = /^([A-Z]{1,3})(\d+)$/;

export function readXlsx(bytes: Uint8Array): Sheet {
  const zip = new ZipArchive(bytes);
  const xml = (part: string): XmlObject => parsePart(zip, part);
  const sheet = children(child(xml(WORKBOOK_PART).workbook, 'sheets'), 'sheet')[0];
  const relationId = attribute(sheet, 'id');
  const name = attribute(sheet, 'name') ?? '';
  if (relationId === null) throw new Error('workbook has no sheet');
  const part = sheetPart(xml(WORKBOOK_RELS_PART), relationId);
  const shared = zip.has(SHARED_STRINGS_PART) ? sharedStrings(xml(SHARED_STRINGS_PART)) : [];
  return { name, rows: cells(xml(part), shared) };
}

function parsePart(zip: ZipArchive, part: string): XmlObject {
  const parsed = parseXml(new TextDecoder('utf-8').decode(zip.read(part)), ARRAY_TAGS);
  if ('error' in parsed) throw new Error(`${part} line ${parsed.line}: ${parsed.error}`);
  return parsed.root;
}

function attribute(node: XmlNode | undefined, name: string): string | null {
  const value = child(node, `@${name}`);
  return typeof value === 'string' ? value : null;
}

/** Relationship targets are relative to xl/ unless absolute. */
function sheetPart(rels: XmlObject, relationId: string): string {
  const relation = children(rels.Relationships, 'Relationship').find(
    (r) => attribute(r, 'Id') === relationId,
  );
  const target = attribute(relation, 'Target');
  if (target === null) throw new Error(`no relationship ${relationId} for the first sheet`);
  return target.startsWith('/') ? target.slice(1) : `xl/${target}`;
}

/** A string item is one <t>, or rich-text runs each with a <t>; phonetic hints (<rPh>) are not text. */
function sharedStrings(root: XmlObject): string[] {
  return children(root.sst, 'si').map((item) => {
    const plain = child(item, 't');
    if (plain !== undefined) return textOf(plain) ?? '';
    return children(item, 'r')
      .map((run) => textOf(child(run, 't')) ?? '')
      .join('');
  });
}

function cells(root: XmlObject, shared: readonly string[]): string[][] {
  const builder = new RowBuilder();
  let nextRow = 0;
  for (const row of children(child(root.worksheet, 'sheetData'), 'row')) {
    const rowNumber = attribute(row, 'r');
    const rowIndex = rowNumber === null ? nextRow : Number(rowNumber) - 1;
    let nextColumn = 0;
    for (const cell of children(row, 'c')) {
      const ref = attribute(cell, 'r');
      const match = ref === null ? null : CELL_REF.exec(ref);
      const column = match?.[1] === undefined ? nextColumn : columnIndex(match[1]);
      const text = cellText(cell, shared);
      if (text !== null) builder.set(rowIndex, column, text);
      nextColumn = column + 1;
    }
    nextRow = rowIndex + 1;
  }
  return builder.build();
}

function cellText(cell: XmlNode, shared: readonly string[]): string | null {
  const type = attribute(cell, 't') ?? 'n';
  if (type === 'inlineStr') return textOf(child(child(cell, 'is'), 't')) ?? '';
  const value = textOf(child(cell, 'v'));
  if (value === null) return null;
  if (type !== 's') return value;
  const text = shared[Number(value)];
  if (text === undefined) throw new Error(`shared string ${value} does not exist`);
  return text;
}
