import { cityQuery, matchCity } from '../domain/banks/city-match.js';
import { itemRank, matchTiers, nameQuery } from '../domain/banks/name-match.js';
import type { NationalContext } from '../domain/iban/national/types.js';

/** What generate/validate need from the registry about one bank code, from real published data only. */
export interface BankInfo {
  readonly countryCode: string;
  readonly bankCode: string;
  readonly bic: string | null;
  readonly name: string | null;
  readonly city: string | null;
  readonly accountCheckMethod: string | null;
  readonly lei: string | null;
  readonly legalName: string | null;
  readonly entityStatus: string | null;
  readonly registrationStatus: string | null;
  readonly paymentSchemes: readonly string[];
  readonly sourceId: string;
  /** A customer account can have this code today (see generation-banks.ts for the rule). */
  readonly live: boolean;
}

/**
 * The registry as the IBAN operations see it: a read-only port. The in-memory implementation is
 * built from parsed snapshots; the LMDB-backed one implements the same interface so the
 * operations never learn where the data lives.
 */
export interface BankDirectory extends NationalContext {
  bankOf(countryCode: string, bankCode: string): BankInfo | undefined;
  /** Bank codes known for a country, in a stable order (generation picks among them with the row rng). */
  bankCodesOf(countryCode: string): readonly string[];
  /** The banks of those codes, same order; cached per country, so a request never rebuilds the list. */
  banksOf(countryCode: string): readonly BankInfo[];
  /**
   * The banks generation draws real bank codes from (see generation-banks.ts): those whose national check the
   * engine can complete, with a city where the country has any; same order as banksOf, cached per country.
   */
  generationBanksOf(countryCode: string): readonly BankInfo[];
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

export interface BankFilter {
  readonly bic?: string;
  readonly name?: string;
  readonly city?: string;
}

// Pure text folding lives in the domain (statement checks use it too); re-exported for the registry's callers.
export { foldText } from '../domain/text/fold.js';

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
