/**
 * Search over folded name, city and identifier tokens. Every query word must start one of the record's
 * tokens. Candidates come from the index range of the most selective word (fewest index entries, counted
 * up to limits.registry.selectivityProbeMax): exact word matches first, then longer words it begins, each in record-id
 * order. That order is the ranking, and it lets the scan stop as soon as `limit` records passed every filter.
 */
import { AppError } from '../../errors.js';
import { searchTokensOf, tokensOf } from './index-keys.js';
import type { RegistryReader } from './registry-reader.js';
import type { StoredRecord } from './types.js';
import { limits } from '../../limits.js';

/** The word whose prefix range holds the fewest entries (ties: the longer word). */
function mostSelective(store: RegistryReader, words: readonly string[]): string {
  let best = words[0] as string;
  let bestCount = Number.POSITIVE_INFINITY;
  for (const word of words) {
    const count = store.countWithPrefix('token', word, limits.registry.selectivityProbeMax);
    if (count < bestCount || (count === bestCount && word.length > best.length)) {
      best = word;
      bestCount = count;
    }
  }
  return best;
}

export interface SearchQuery {
  readonly query: string;
  readonly country_code?: string | undefined;
  readonly source_id?: string | undefined;
  readonly record_type?: string | undefined;
  /** Matches entity_status or registration_status, case-insensitive. */
  readonly status?: string | undefined;
  readonly limit: number;
}

export interface SearchResult {
  readonly records: readonly StoredRecord[];
  /** More records matched than `limit`. */
  readonly truncated: boolean;
  /** The scan stopped at limits.registry.searchScanMax candidates before it could finish. */
  readonly scan_capped: boolean;
}

function filterOf(query: SearchQuery, words: readonly string[]): (record: StoredRecord) => boolean {
  const country = query.country_code?.toUpperCase();
  const status = query.status?.toUpperCase();
  return (record) => {
    if (country !== undefined && record.country_code !== country) return false;
    if (query.source_id !== undefined && record.source_id !== query.source_id) return false;
    if (query.record_type !== undefined && record.record_type !== query.record_type) return false;
    if (
      status !== undefined &&
      record.entity_status?.toUpperCase() !== status &&
      record.registration_status?.toUpperCase() !== status
    )
      return false;
    const tokens = searchTokensOf(record);
    return words.every((word) => tokens.some((token) => token.startsWith(word)));
  };
}

export function searchRegistry(store: RegistryReader, query: SearchQuery): SearchResult {
  const words = [...new Set(tokensOf(query.query))];
  if (words.length === 0)
    throw new AppError(
      'invalid_argument',
      'query must contain a word of at least 2 letters or digits',
    );
  const scanWord = mostSelective(store, words);
  const keep = filterOf(query, words);
  const seen = new Set<number>();
  const records: StoredRecord[] = [];
  for (const { id } of store.idsWithPrefix('token', scanWord)) {
    if (seen.has(id)) continue;
    seen.add(id);
    if (seen.size > limits.registry.searchScanMax)
      return { records, truncated: false, scan_capped: true };
    const record = store.record(id);
    if (record === undefined || !keep(record)) continue;
    if (records.length === query.limit) return { records, truncated: true, scan_capped: false };
    records.push(record);
  }
  return { records, truncated: false, scan_capped: false };
}
