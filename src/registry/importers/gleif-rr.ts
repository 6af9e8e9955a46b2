/**
 * GLEIF Level 2 relationship records (RR-CDF 2.1): "who owns whom" between two LEIs. XML follows the
 * RR-CDF schema (rr:RelationshipData / rr:RelationshipRecords / rr:RelationshipRecord); JSON follows GLEIF's
 * golden-copy convention ("$" for text, "@" for attributes) with the list under "relations" or "records".
 *
 * No real RR file was available to test against: the JSON list key in particular is accepted under both
 * names rather than assumed. Each relationship becomes one 'relationship' record; `attachParents` turns
 * them into ParentLinks on the child entities (StartNode = child, EndNode = parent).
 */
import type { ParentLink, ParsedSnapshot, RegistryRecord, SourceInfo } from '../record.js';
import { invalidInput, invalidRecord, makeRecord } from './common.js';
import { flattenRecord, isValidLei, readGleifTree, gleifSnapshot, textAt } from './gleif-common.js';
import { child, children, type XmlNode } from './xml.js';

const KIND = 'GLEIF relationship file';
const ARRAY_TAGS = new Set([
  'RelationshipRecord',
  'RelationshipPeriod',
  'RelationshipQualifier',
  'RelationshipQuantifier',
]);
const JSON_LIST_KEYS = ['relations', 'records'] as const;
/** The period whose start is the relationship's own start (others are accounting or filing periods). */
const RELATIONSHIP_PERIOD = 'RELATIONSHIP_PERIOD';
const ISO_DATE_LENGTH = 'YYYY-MM-DD'.length;

export const gleifRrSource: SourceInfo = {
  source_id: 'gleif-rr',
  publisher: 'Global Legal Entity Identifier Foundation (GLEIF)',
  title: 'Relationship records, Level 2 (RR-CDF)',
  license: 'CC0 1.0',
  version: null,
};

export interface GleifRrOptions {
  readonly snapshotDate?: string;
}

export function parseGleifRr(bytes: Uint8Array, options: GleifRrOptions = {}): ParsedSnapshot {
  const { root, format } = readGleifTree(bytes, KIND, ARRAY_TAGS);
  const { items, contentDate } = format === 'json' ? jsonItems(root) : xmlItems(root);
  return gleifSnapshot(gleifRrSource, KIND, items, options.snapshotDate ?? contentDate, toRecord);
}

function jsonItems(root: XmlNode): { items: XmlNode[]; contentDate: string | null } {
  const list = JSON_LIST_KEYS.map((key) => child(root, key)).find((value) => Array.isArray(value));
  if (!Array.isArray(list)) throw invalidInput(KIND, 1, 'missing "relations" list');
  // Items may be the record itself or wrapped as { RelationshipRecord: {...} }.
  return {
    items: list.map((item) => child(item, 'RelationshipRecord') ?? item),
    contentDate: null,
  };
}

function xmlItems(root: XmlNode): { items: XmlNode[]; contentDate: string | null } {
  const data = child(root, 'RelationshipData');
  const header = child(data, 'Header');
  if (header === undefined) throw invalidInput(KIND, 1, 'missing rr:Header');
  const items = children(child(data, 'RelationshipRecords'), 'RelationshipRecord');
  const declared = textAt(header, 'RecordCount');
  if (declared !== null && Number(declared) !== items.length) {
    throw invalidInput(
      KIND,
      1,
      `header RecordCount ${declared} but ${items.length} RelationshipRecord elements`,
    );
  }
  return { items, contentDate: textAt(header, 'ContentDate')?.slice(0, ISO_DATE_LENGTH) ?? null };
}

function nodeLei(
  relationship: XmlNode | undefined,
  node: 'StartNode' | 'EndNode',
  position: number,
): string {
  const id = textAt(relationship, node, 'NodeID');
  const type = textAt(relationship, node, 'NodeIDType');
  if (id === null) throw invalidRecord(KIND, position, `missing ${node}/NodeID`);
  if (type !== 'LEI')
    throw invalidRecord(KIND, position, `${node}/NodeIDType is "${type ?? ''}", expected LEI`);
  if (!isValidLei(id))
    throw invalidRecord(KIND, position, `${node} LEI ${id} fails the ISO 17442 check digits`);
  return id;
}

function toRecord(item: XmlNode, position: number): RegistryRecord {
  const relationship = child(item, 'Relationship');
  const childLei = nodeLei(relationship, 'StartNode', position);
  const parentLei = nodeLei(relationship, 'EndNode', position);
  const type = textAt(relationship, 'RelationshipType');
  if (type === null) throw invalidRecord(KIND, position, 'missing RelationshipType');
  const period = children(child(relationship, 'RelationshipPeriods'), 'RelationshipPeriod').find(
    (candidate) => textAt(candidate, 'PeriodType') === RELATIONSHIP_PERIOD,
  );
  const link: ParentLink = {
    relationship_type: type,
    scheme: 'lei',
    value: parentLei,
    status: textAt(relationship, 'RelationshipStatus'),
    start_date: textAt(period, 'StartDate'),
  };
  return makeRecord({
    source_id: gleifRrSource.source_id,
    record_key: `${childLei}|${type}|${parentLei}`,
    record_type: 'relationship',
    // A relationship has no country of its own.
    country_code: '',
    lei: childLei,
    registration_status: textAt(item, 'Registration', 'RegistrationStatus'),
    parents: [link],
    fields: flattenRecord(item),
  });
}

/** Parent links per child LEI, from a relationship snapshot. */
export function parentLinksByChild(relationships: ParsedSnapshot): Map<string, ParentLink[]> {
  const byChild = new Map<string, ParentLink[]>();
  for (const record of relationships.records) {
    if (record.record_type !== 'relationship' || record.lei === null) continue;
    const links = byChild.get(record.lei) ?? [];
    links.push(...record.parents);
    byChild.set(record.lei, links);
  }
  return byChild;
}

/**
 * The entity snapshot with each LEI's parent links attached (all published links, whatever their status:
 * the link carries RelationshipStatus so readers can keep only ACTIVE ones).
 */
export function attachParents(
  entities: ParsedSnapshot,
  relationships: ParsedSnapshot,
): ParsedSnapshot {
  const byChild = parentLinksByChild(relationships);
  const records = entities.records.map((record) => {
    const links = record.lei === null ? undefined : byChild.get(record.lei);
    return links === undefined ? record : { ...record, parents: [...record.parents, ...links] };
  });
  return { ...entities, records };
}
