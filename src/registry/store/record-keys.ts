/**
 * The keys people know, per source, resolved to the record key the registry stores: as stored (OeNB bank code,
 * GLEIF LEI, ABA routing number, Bundesbank branch key "10050000-012345", SIX "IID-Filial-ID", NBB "from-to"),
 * with a country prefix ("DE:10050000"), and the source's own rule from the source table (a SIX IID "8528": its
 * head record 8528-0000; an NBB protocol code "539": the range that holds it). Read-only.
 */
import type { RegistryReader } from './registry-reader.js';
import { registrySource } from './sources.js';

const COUNTRY_PREFIX = /^[A-Z]{2}:/;

/** The stored key `key` names in `sourceId`, or `key` itself (trimmed) when nothing else fits. */
export function canonicalRecordKey(store: RegistryReader, sourceId: string, key: string): string {
  const trimmed = key.trim();
  if (store.recordId(sourceId, trimmed) !== undefined) return trimmed;
  const bare = trimmed.toUpperCase().replace(COUNTRY_PREFIX, '');
  if (bare !== trimmed && store.recordId(sourceId, bare) !== undefined) return bare;
  return registrySource(sourceId)?.recordKey(store, sourceId, bare) ?? trimmed;
}
