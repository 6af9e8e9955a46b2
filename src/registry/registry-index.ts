/**
 * The questions an op may ask of the registry's indexes (the `registryIndex` capability): search, identifier
 * lookup, the stored key a caller's key names, records by domestic code, and the codes a record is indexed
 * under. Ops hold this port and the RegistryReader, never the store's modules, so the store can change how
 * it keys and scans without an op noticing.
 */
import type { RegistryRecord } from './record.js';
import { bic8Of, codeKey, ibanBankCodesOf } from './store/index-keys.js';
import { lookupIdentifier, type LookupHit } from './store/lookup.js';
import { canonicalRecordKey } from './store/record-keys.js';
import type { RegistryReader } from './store/registry-reader.js';
import { searchRegistry, type SearchQuery, type SearchResult } from './store/search.js';

export type { LookupHit } from './store/lookup.js';
export type { SearchQuery, SearchResult } from './store/search.js';

export interface RegistryIndex {
  /** Records whose names match the query, best first, within the query's filters and limit. */
  search(query: SearchQuery): SearchResult;
  /** Records an identifier names (BIC, LEI, IBAN, national code): `type` as given, or recognised from the value. */
  lookup(value: string, type: string | undefined, limit: number): LookupHit;
  /** The stored record key that `key` names in the source (a bank code, a head office), or `key` trimmed. */
  recordKey(sourceId: string, key: string): string;
  /** Ids of the records that publish this domestic code, at most `limit`. */
  idsOfCode(countryCode: string, scheme: string, value: string, limit: number): readonly number[];
  /** The bank codes the record stands for inside IBANs of its country, as the index holds them. */
  ibanBankCodesOf(record: RegistryRecord): readonly string[];
  /** The 8-character BIC (institution, country, location) of a BIC8 or BIC11. */
  bic8Of(bic: string): string;
}

export function registryIndexOf(registry: RegistryReader): RegistryIndex {
  return {
    search: (query) => searchRegistry(registry, query),
    lookup: (value, type, limit) => lookupIdentifier(registry, value, type, limit),
    recordKey: (sourceId, key) => canonicalRecordKey(registry, sourceId, key),
    idsOfCode: (countryCode, scheme, value, limit) =>
      registry.idsAt('code', codeKey(countryCode, scheme, value), limit),
    ibanBankCodesOf,
    bic8Of,
  };
}
