import type { NationalContext } from '../iban/national/types.js';

/** What a statement check reads of one registry bank: the name and BIC the statement is compared with. */
export interface StatementBank {
  readonly name: string | null;
  readonly bic: string | null;
}

/**
 * The bank registry as the statement checks need it: national check methods (IBAN validation) and a bank
 * by country and bank code. The registry's BankDirectory implements it; the domain names only this.
 */
export interface StatementBanks extends NationalContext {
  bankOf(countryCode: string, bankCode: string): StatementBank | undefined;
}

/** What the checks know besides the document: the clock, the registry, the caller's expectations and bounds. */
export interface CheckContext {
  readonly now: Date;
  readonly bank: StatementBanks;
  readonly expectedBank: string | null;
  readonly expectedBankSlug: string | null;
  /** Free keys see hidden registry values: messages then never name the registry's bank or BIC. */
  readonly revealBank: boolean;
  readonly evidenceCharsMax: number;
  readonly evidencePerCodeMax: number;
}
