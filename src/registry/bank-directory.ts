import { cityQuery, matchCity } from '../domain/banks/city-match.js';
import { itemRank, matchTiers, nameQuery } from '../domain/banks/name-match.js';
import type { BankInfo, BankSource } from '../domain/banks/bank-source.js';

export type { BankInfo } from '../domain/banks/bank-source.js';
export { foldText } from '../domain/text/fold.js';

/**
 * The registry as the IBAN operations see it: a read-only port. The in-memory implementation is
 * built from parsed snapshots; the LMDB-backed one implements the same interface so the
 * operations never learn where the data lives. Its BankSource lists (banksOf, in bankCodesOf's order, and
 * generationBanksOf) are cached per country, so a request never rebuilds them.
 */
export interface BankDirectory extends BankSource {
  bankOf(countryCode: string, bankCode: string): BankInfo | undefined;
  /**
   * The banks numbered by id, found by the country's index in countryFormats and the bank code's key
   * (bankCodeKey, or the key scanElectronic reads from an IBAN), so the validation hot path builds and hashes no
   * string: the current registry version's numbering, a new object after every version change (so what a caller
   * keeps per id, keyed by this object, is dropped with the version).
   */
  bankIds(): BankIds;
  /** Bank codes known for a country, in a stable order (generation picks among them with the row rng). */
  bankCodesOf(countryCode: string): readonly string[];
  /** Banks of a country matching every given filter, best match tier only (see bank-match.ts). */
  banksMatching(countryCode: string, filter: BankFilter, limit: number): readonly BankInfo[];
  /** Identifies the data behind a response (registry.fingerprint in responses). */
  readonly fingerprint: string;
  /**
   * Reads the registry's current version (one small read), drops every cache built on an older one, and
   * returns it. The service calls it once per request, and a pool worker once per task, checking it against
   * the version the main thread saw: every thread answers from the same registry version.
   */
  syncVersion(): number;
}

/** Banks by dense integer id, one numbering per registry version (BankDirectory.bankIds). */
export interface BankIds {
  /** The id of the bank with this key in the country at this index of countryFormats, or -1 when none has it. */
  idOf(countryIndex: number, bankKey: number): number;
  /** The bank of an id idOf gave. */
  bankOf(id: number): BankInfo;
}

export interface BankFilter {
  readonly bic?: string;
  readonly name?: string;
  readonly city?: string;
}

/**
 * Every given filter must hold for this one bank: exact BIC11, or every office of a BIC8; the name matches at
 * some tier of the bank-name matcher; the city matches at some tier of the city matcher (exonyms need the
 * country's registry cities, see matchBanks). Ranking among several banks is matchBanks' job.
 */
export function bankMatchesFilter(bank: BankInfo, filter: BankFilter): boolean {
  if (filter.bic !== undefined) {
    const bic = bank.bic ?? '';
    const wanted = filter.bic.length === 8 ? `${filter.bic}XXX` : filter.bic;
    if (bic !== wanted && !(filter.bic.length === 8 && bic.startsWith(filter.bic))) return false;
  }
  if (
    filter.name !== undefined &&
    itemRank(nameQuery(filter.name), [bank.name, bank.legalName]) === matchTiers.length
  )
    return false;
  if (filter.city !== undefined && matchCity(cityQuery(filter.city), bank.city) === undefined)
    return false;
  return true;
}
