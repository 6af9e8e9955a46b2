/**
 * What domain code reads about banks, in the domain's own terms; the registry (src/registry/bank-directory.ts)
 * implements it, so profile generation and its quality checks never import the registry.
 */
import type { NationalContext } from '../iban/national/types.js';

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

/** The banks of a country, as profile generation draws and describes them, and the national check methods
 *  generation completes an IBAN with. */
export interface BankSource extends NationalContext {
  /** Every bank of the country with a code, in a stable order. */
  banksOf(countryCode: string): readonly BankInfo[];
  /**
   * The banks generation draws real bank codes from (see src/registry/generation-banks.ts): those whose national
   * check the engine can complete, with a city where the country has any; same order as banksOf.
   */
  generationBanksOf(countryCode: string): readonly BankInfo[];
}
