/**
 * City names as people type them: "München", "Munchen" and "Muenchen" are one city. A name is folded two ways,
 * plain transliteration (any-ascii: "ü" -> "u") and the German/Scandinavian spelling without umlauts
 * ("ü" -> "ue", "ö" -> "oe", "ä" -> "ae", "ß" -> "ss", the DIN 5007-2 form also used in e-mail addresses and
 * passports); two names are one city when any fold of one meets any fold of the other. Words match with the
 * name tiers (exact > all words > prefix), so "Frankfurt" finds "Frankfurt am Main" and "Frankfurt (Oder)". Pure.
 */
import anyAscii from 'any-ascii';
import { umlautExpansions } from '../text/umlauts.js';
import { matchTiers, matchWords, type MatchTier, type NameQuery } from './name-match.js';

function words(text: string): string[] {
  return anyAscii(text)
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((word) => word !== '');
}

/** The folded forms of a city name (one or two), as word lists. */
export function cityFolds(text: string): string[][] {
  const plain = words(text);
  const expanded = words(
    text.normalize('NFC').replace(/[äöüÄÖÜßẞ]/g, (c) => umlautExpansions[c] ?? c),
  );
  return expanded.join(' ') === plain.join(' ') ? [plain] : [plain, expanded];
}

/** One key per folded form, for exact lookups ("MUNCHEN", "MUENCHEN"). */
export function cityKeys(text: string): string[] {
  return cityFolds(text).map((fold) => fold.join(' '));
}

export type CityQuery = readonly NameQuery[];

export function cityQuery(text: string): CityQuery {
  return cityFolds(text).map((fold) => {
    const unique = [...new Set(fold)];
    return { words: unique, core: unique };
  });
}

/** The best tier at which a city query matches a city name (any fold against any fold). */
export function matchCity(query: CityQuery, city: string | null): MatchTier | undefined {
  return city === null ? undefined : matchCityFolds(query, cityFolds(city));
}

/** matchCity over a city's folds computed once (see cityFolds). */
export function matchCityFolds(
  query: CityQuery,
  folds: readonly (readonly string[])[],
): MatchTier | undefined {
  let best: number = matchTiers.length;
  for (const fold of folds) {
    for (const form of query) {
      const tier = matchWords(form, fold);
      if (tier !== undefined) best = Math.min(best, matchTiers.indexOf(tier));
    }
  }
  return matchTiers[best];
}
