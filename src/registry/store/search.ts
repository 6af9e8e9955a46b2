/**
 * Search over folded name, city and identifier tokens, ranked by the bank-name matcher that targeting uses
 * (domain/banks/name-match.ts). A record matches when its name or short name matches the query at a tier of
 * that matcher (exact > all words > core words, i.e. without generic bank words such as "Bank" > prefix), or
 * when every query word starts one of its tokens (city, BIC, LEI, codes); name tiers rank first, in that order,
 * then the token matches. Candidates come from the index range of the most selective distinctive word (fewest
 * index entries, counted up to limits.registry.selectivityProbeMax), in index order within each rank.
 */
import { AppError } from '../../errors.js';
import { isBankWord, itemRank, matchTiers, nameQuery } from '../../domain/banks/name-match.js';
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

function filterOf(query: SearchQuery): (record: StoredRecord) => boolean {
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
    return true;
  };
}

/** The record's rank: a name tier (0..3), 4 for a match by tokens only, undefined for no match. */
function rankerOf(
  query: SearchQuery,
  words: readonly string[],
): (record: StoredRecord) => number | undefined {
  const names = nameQuery(query.query);
  const byTokens = matchTiers.length;
  return (record) => {
    const rank = itemRank(names, [record.legal_name, record.short_name]);
    if (rank < byTokens) return rank;
    const tokens = searchTokensOf(record);
    return words.every((word) => tokens.some((token) => token.startsWith(word)))
      ? byTokens
      : undefined;
  };
}

/** Ranked matches so far, and whether the scan can stop: no later candidate could enter the first `limit`. */
class Ranking {
  readonly entries: { readonly record: StoredRecord; readonly rank: number }[] = [];
  private exact = 0;
  private wholeWord = 0;

  constructor(private readonly limit: number) {}

  add(record: StoredRecord, rank: number): void {
    this.entries.push({ record, rank });
    if (rank === 0) this.exact++;
    if (rank < WHOLE_WORD_RANKS) this.wholeWord++;
  }

  /** More exact names than fit: nothing later can rank before them. */
  full(): boolean {
    return this.exact > this.limit;
  }

  /**
   * Past the entries of the scan word itself (the index lists a word before the longer words it begins), a
   * candidate holds the word only as a prefix, so it ranks after every whole-word name match.
   */
  fullAfterWholeWords(): boolean {
    return this.wholeWord > this.limit;
  }
}

/** Name tiers that need the query's words as whole words (exact, all words, core words). */
const WHOLE_WORD_RANKS = 3;

export function searchRegistry(store: RegistryReader, query: SearchQuery): SearchResult {
  const words = [...new Set(tokensOf(query.query))];
  if (words.length === 0)
    throw new AppError(
      'invalid_argument',
      'query must contain a word of at least 2 letters or digits',
    );
  // A generic bank word is optional for a name match, so it cannot be the word every candidate carries.
  const distinctive = words.filter((word) => !isBankWord(word));
  const scanWord = mostSelective(store, distinctive.length > 0 ? distinctive : words);
  const keep = filterOf(query);
  const rankOf = rankerOf(query, words);
  const seen = new Set<number>();
  const ranking = new Ranking(query.limit);
  let capped = false;
  let stopped = false;
  for (const { key, id } of store.idsWithPrefix('token', scanWord)) {
    if (ranking.full() || (key !== scanWord && ranking.fullAfterWholeWords())) {
      stopped = true;
      break;
    }
    if (seen.has(id)) continue;
    seen.add(id);
    if (seen.size > limits.registry.searchScanMax) {
      capped = true;
      break;
    }
    const record = store.record(id);
    if (record === undefined || !keep(record)) continue;
    const rank = rankOf(record);
    if (rank !== undefined) ranking.add(record, rank);
  }
  // Array.prototype.sort is stable: index order stays within a rank.
  const ranked = ranking.entries.sort((a, b) => a.rank - b.rank);
  return {
    records: ranked.slice(0, query.limit).map((entry) => entry.record),
    truncated: stopped || ranked.length > query.limit,
    scan_capped: capped,
  };
}
