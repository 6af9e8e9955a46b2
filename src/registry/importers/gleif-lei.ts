/**
 * GLEIF Level 1 LEI data: golden-copy / delta JSON (LEI-CDF 3.1, { records: [...] }) and the concatenated
 * XML file (LEI-CDF 2.1, lei:LEIData). One legal_entity record per LEI; LEI check digits are verified.
 * Data licence: CC0 1.0.
 */
import type { ParsedSnapshot, RegistryAddress, RegistryRecord, SourceInfo } from '../record.js';
import { invalidInput, invalidRecord, makeRecord } from './common.js';
import { flattenRecord, isValidLei, readGleifTree, gleifSnapshot, textAt } from './gleif-common.js';
import { child, children, type XmlNode } from './xml.js';

const KIND = 'GLEIF LEI file';
/** Elements that repeat in LEI-CDF; GLEIF's JSON always writes them as arrays, so the XML reading does too. */
const ARRAY_TAGS = new Set([
  'LEIRecord',
  'OtherEntityName',
  'TransliteratedOtherEntityName',
  'OtherAddress',
  'TransliteratedOtherAddress',
  'AdditionalAddressLine',
  'LegalEntityEvent',
  'AffectedField',
  'OtherValidationAuthority',
]);
const ISO_DATE_LENGTH = 'YYYY-MM-DD'.length;

export const gleifLeiSource: SourceInfo = {
  source_id: 'gleif-lei',
  publisher: 'Global Legal Entity Identifier Foundation (GLEIF)',
  title: 'LEI data, Level 1 (LEI-CDF)',
  license: 'CC0 1.0',
  version: null,
};

export interface GleifLeiOptions {
  /** Publication date; the XML header's ContentDate is used when this is absent. JSON files carry none. */
  readonly snapshotDate?: string;
}

export function parseGleifLei(bytes: Uint8Array, options: GleifLeiOptions = {}): ParsedSnapshot {
  const { root, format } = readGleifTree(bytes, KIND, ARRAY_TAGS);
  const { items, contentDate } = format === 'json' ? jsonItems(root) : xmlItems(root);
  return gleifSnapshot(gleifLeiSource, KIND, items, options.snapshotDate ?? contentDate, toRecord);
}

function jsonItems(root: XmlNode): { items: XmlNode[]; contentDate: string | null } {
  const list = child(root, 'records');
  if (!Array.isArray(list)) throw invalidInput(KIND, 1, 'missing "records" list');
  return { items: list, contentDate: null };
}

function xmlItems(root: XmlNode): { items: XmlNode[]; contentDate: string | null } {
  const data = child(root, 'LEIData');
  const header = child(data, 'LEIHeader');
  if (header === undefined) throw invalidInput(KIND, 1, 'missing LEIHeader');
  const items = children(child(data, 'LEIRecords'), 'LEIRecord');
  const declared = textAt(header, 'RecordCount');
  // A concatenated file cut short still parses if it ends on a record boundary; the header count catches that.
  if (declared !== null && Number(declared) !== items.length) {
    throw invalidInput(
      KIND,
      1,
      `header RecordCount ${declared} but ${items.length} LEIRecord elements`,
    );
  }
  return { items, contentDate: textAt(header, 'ContentDate')?.slice(0, ISO_DATE_LENGTH) ?? null };
}

function toRecord(item: XmlNode, position: number): RegistryRecord {
  const lei = textAt(item, 'LEI');
  if (lei === null) throw invalidRecord(KIND, position, 'missing LEI');
  if (!isValidLei(lei))
    throw invalidRecord(KIND, position, `LEI ${lei} fails the ISO 17442 check digits`);
  const entity = child(item, 'Entity');
  const legalName = textAt(entity, 'LegalName');
  if (legalName === null) throw invalidRecord(KIND, position, `LEI ${lei} has no LegalName`);
  const legalAddress = child(entity, 'LegalAddress');
  const successorLei = textAt(entity, 'SuccessorEntity', 'SuccessorLEI');
  return makeRecord({
    source_id: gleifLeiSource.source_id,
    record_key: lei,
    record_type: 'legal_entity',
    country_code: textAt(legalAddress, 'Country') ?? '',
    legal_name: legalName,
    lei,
    address: addressOf(legalAddress),
    entity_status: textAt(entity, 'EntityStatus'),
    registration_status: textAt(item, 'Registration', 'RegistrationStatus'),
    successor:
      successorLei === null ? null : { scheme: 'lei', value: successorLei, effective_at: null },
    fields: flattenRecord(item),
  });
}

function addressOf(address: XmlNode | undefined): RegistryAddress {
  const lines = [
    textAt(address, 'FirstAddressLine'),
    ...children(address, 'AdditionalAddressLine').map((line) => textAt(line)),
  ];
  const street = lines.filter((line): line is string => line !== null).join(', ');
  return {
    street: street === '' ? null : street,
    postal_code: textAt(address, 'PostalCode'),
    city: textAt(address, 'City'),
    region: textAt(address, 'Region'),
  };
}
