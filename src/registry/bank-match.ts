/**
 * Banks of a country matching a filter, ranked: the one matcher behind targeting (generate, profiles,
 * scenarios). A BIC filter is exact (BIC11, or every office of a BIC8); a name filter keeps the banks of the best
 * name tier only (exact > all words > core words > prefix, see domain/banks/name-match.ts), so a query never
 * pulls in a bank that merely contains its letters; a city filter keeps the best city tier of the registry's own
 * spellings, together with the banks whose city is a place the query names in the gazetteer (exonyms and other
 * names of the place, "Cologne" for Köln, "Geneva" for Genève; see city-gazetteer.ts).
 */
import { cityFolds, cityQuery, matchCityFolds } from '../domain/banks/city-match.js';
import {
  matchTiers,
  matchWords,
  nameQuery,
  nameWords,
  tierRank,
  type NameQuery,
} from '../domain/banks/name-match.js';
import type { BankFilter, BankInfo } from './bank-directory.js';
import { queryPlaces, registryCityKeys, registryCityPlaces } from './city-gazetteer.js';

function bicMatches(bank: BankInfo, wanted: string): boolean {
  const bic = bank.bic ?? '';
  if (wanted.length === 8) return bic.startsWith(wanted);
  return bic === wanted;
}

/** Keeps the items of the lowest rank (rank = matchTiers.length means no match). */
function best<T>(items: readonly T[], rankOf: (item: T) => number): T[] {
  let lowest: number = matchTiers.length;
  let kept: T[] = [];
  for (const item of items) {
    const rank = rankOf(item);
    if (rank > lowest || rank === matchTiers.length) continue;
    if (rank < lowest) {
      lowest = rank;
      kept = [];
    }
    kept.push(item);
  }
  return kept;
}

interface BankWords {
  readonly names: readonly (readonly string[])[];
  readonly city: readonly (readonly string[])[];
  /** The city's gazetteer lookup keys (see registryCityKeys). */
  readonly cityKeys: readonly string[];
  /** The gazetteer places the city is one of (GeoNames ids), looked up on the first city query. */
  placeIds?: readonly number[];
}

/**
 * A bank's normalised name words and city folds, computed once per bank object: a directory keeps its bank
 * objects until the registry changes, so targeting a country of 3,500 banks does not transliterate every name
 * on every request.
 */
const wordsCache = new WeakMap<BankInfo, BankWords>();

function wordsOf(bank: BankInfo): BankWords {
  let words = wordsCache.get(bank);
  if (words === undefined) {
    const names = [bank.name, bank.legalName].filter((name): name is string => name !== null);
    const city = bank.city === null ? [] : cityFolds(bank.city);
    words = {
      names: [...new Set(names)].map(nameWords),
      city,
      cityKeys: registryCityKeys(city.map((fold) => fold.join(' '))),
    };
    wordsCache.set(bank, words);
  }
  return words;
}

function nameRank(query: NameQuery, bank: BankInfo): number {
  let rank: number = matchTiers.length;
  for (const words of wordsOf(bank).names) {
    const tier = matchWords(query, words);
    if (tier !== undefined) rank = Math.min(rank, tierRank(tier));
  }
  return rank;
}

function cityRank(query: ReturnType<typeof cityQuery>, bank: BankInfo): number {
  const tier = matchCityFolds(query, wordsOf(bank).city);
  return tier === undefined ? matchTiers.length : tierRank(tier);
}

function byCity(countryCode: string, banks: readonly BankInfo[], city: string): BankInfo[] {
  const query = cityQuery(city);
  const direct = new Set(best(banks, (bank) => cityRank(query, bank)));
  // A country whose registry knows no city needs no gazetteer.
  if (!banks.some((bank) => bank.city !== null)) return [...direct];
  const places = queryPlaces(countryCode, city);
  if (places.size === 0) return [...direct];
  return banks.filter(
    (bank) => direct.has(bank) || placeIdsOf(countryCode, bank).some((id) => places.has(id)),
  );
}

/** The gazetteer places of the bank's city, cached with its words (GeoNames ids do not change). */
function placeIdsOf(countryCode: string, bank: BankInfo): readonly number[] {
  const words = wordsOf(bank);
  words.placeIds ??= registryCityPlaces(countryCode, words.cityKeys);
  return words.placeIds;
}

export function matchBanks(
  countryCode: string,
  banks: readonly BankInfo[],
  filter: BankFilter,
  limit: number,
): readonly BankInfo[] {
  let found: readonly BankInfo[] = banks;
  if (filter.bic !== undefined) {
    const wanted = filter.bic.toUpperCase();
    found = found.filter((bank) => bicMatches(bank, wanted));
  }
  if (filter.city !== undefined && found.length > 0)
    found = byCity(countryCode, found, filter.city);
  if (filter.name !== undefined && found.length > 0) {
    const query = nameQuery(filter.name);
    found = best(found, (bank) => nameRank(query, bank));
  }
  return found.slice(0, limit);
}
