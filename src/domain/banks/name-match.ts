/**
 * One matcher for bank names, used by targeting (generate, profiles, scenarios) and by registry search: a query
 * matches a name word by word after normalisation, never as a substring (so "ING Bank" is not found inside
 * "ABN AMRO Clearing Bank"). Pure.
 *
 * Normalisation: transliteration to ASCII (any-ascii: "Łódź" -> "Lodz"), case, punctuation; "&" and "and"
 * are one connector and are dropped; dots inside abbreviations are closed up ("N.V." -> "NV") and legal-form
 * words are dropped (they say what kind of company it is, not which one). Generic bank words ("Bank",
 * "Banque", ...) are optional on the query side: "ING Bank" matches a bank the registry calls "ING", one tier
 * below a name that carries the word too, but not "Deutsche Bundesbank" for "Deutsche Bank" (a name that holds
 * the word inside a compound names another kind of bank).
 *
 * Tiers, best first: exact (same words), all words (every query word is a word of the name), core words
 * (every query word but the generic bank words), prefix (every query word begins a word of the name).
 */
import anyAscii from 'any-ascii';

export const matchTiers = ['exact', 'all_words', 'core_words', 'prefix'] as const;
export type MatchTier = (typeof matchTiers)[number];

/**
 * Legal-form abbreviations and words of the ISO 20275 entity legal forms the registries' bank names carry
 * (after closing up dots): they never tell two banks apart.
 */
const LEGAL_FORMS: ReadonlySet<string> = new Set([
  'AG',
  'AB',
  'AD',
  'AS',
  'ASA',
  'BV',
  'CO',
  'COOP',
  'CORP',
  'CORPORATION',
  'DD',
  'EG',
  'EGEN',
  'EGMBH',
  'EV',
  'GMBH',
  'INC',
  'KG',
  'KGAA',
  'LIMITED',
  'LLC',
  'LTD',
  'NV',
  'OHG',
  'OY',
  'OYJ',
  'PLC',
  'SA',
  'SAS',
  'SARL',
  'SC',
  'SCRL',
  'SE',
  'SPA',
  'SRL',
  'SCPA',
  'UAB',
  'ZRT',
  'NYRT',
  'KFT',
  'DOO',
]);

/** The word "and" in the registries' languages is not used: only "&" and English "and" are one connector. */
const CONNECTORS: ReadonlySet<string> = new Set(['AND']);

/** Generic words for "bank" in the registries' languages: optional on the query side. */
const BANK_WORDS: ReadonlySet<string> = new Set([
  'BANK',
  'BANQUE',
  'BANCA',
  'BANCO',
  'BANKA',
  'BANKAS',
  'BANKI',
  'BANKEN',
]);

/** Normalised words of a bank name or query (empty when it holds only legal forms and connectors). */
export function nameWords(text: string): string[] {
  const words = anyAscii(text)
    .toUpperCase()
    .replace(/&/g, ' AND ')
    // "N.V.", "S.p.A.", "e.G.": letters joined by dots are one abbreviation.
    .replace(/\b(?:[A-Z]{1,3}\.){1,4}[A-Z]{0,3}\b\.?/g, (abbreviation) =>
      abbreviation.replace(/\./g, ''),
    )
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((word) => word !== '' && !CONNECTORS.has(word));
  const distinctive = words.filter((word) => !LEGAL_FORMS.has(word));
  return distinctive.length > 0 ? distinctive : words;
}

/** A query prepared once and matched against many names. */
export interface NameQuery {
  readonly words: readonly string[];
  /** The query words without the generic bank words (all of them when nothing else is left). */
  readonly core: readonly string[];
}

/** Whether a word is one of the generic bank words (search scans by a distinctive word instead). */
export function isBankWord(word: string): boolean {
  return BANK_WORDS.has(word);
}

export function nameQuery(text: string): NameQuery {
  const words = [...new Set(nameWords(text))];
  const core = words.filter((word) => !BANK_WORDS.has(word));
  return { words, core: core.length > 0 ? core : words };
}

/** The best tier at which the query matches the name, or undefined when it does not match. */
export function matchName(query: NameQuery, name: string | null): MatchTier | undefined {
  if (name === null) return undefined;
  return matchWords(query, nameWords(name));
}

/** The tier at which the query's words match a name's words (see the tiers above). */
export function matchWords(query: NameQuery, words: readonly string[]): MatchTier | undefined {
  if (query.words.length === 0 || words.length === 0) return undefined;
  const has = new Set(words);
  if (query.words.every((word) => has.has(word)))
    return has.size === query.words.length ? 'exact' : 'all_words';
  if (query.core.every((word) => has.has(word)) && !compoundsGenericWord(query, words))
    return 'core_words';
  if (query.words.every((word) => words.some((own) => own.startsWith(word)))) return 'prefix';
  return undefined;
}

/**
 * A generic query word the name lacks as a word but carries inside one ("Bank" in "Bundesbank"): the name then
 * says which kind of bank it is, and it is another one than the query's, so the generic word is not optional.
 */
function compoundsGenericWord(query: NameQuery, words: readonly string[]): boolean {
  return query.words.some(
    (word) =>
      !query.core.includes(word) &&
      !words.includes(word) &&
      words.some((own) => own.includes(word)),
  );
}

/** Index of a tier in the ranking (0 = exact). */
export function tierRank(tier: MatchTier): number {
  return matchTiers.indexOf(tier);
}

/** The best tier rank of any of an item's names (matchTiers.length when none matches). */
export function itemRank(query: NameQuery, names: readonly (string | null)[]): number {
  let best: number = matchTiers.length;
  for (const name of names) {
    const tier = matchName(query, name);
    if (tier !== undefined) best = Math.min(best, tierRank(tier));
  }
  return best;
}
