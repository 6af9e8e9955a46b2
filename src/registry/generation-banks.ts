/**
 * The real banks generation draws bank codes from, per country: a generated IBAN must pass the bank's own
 * national check, so where the check depends on a per-bank method (Germany: the Bundesbank method of the bank
 * code) only banks whose method the engine implements qualify; and where the registry knows cities for a
 * country, only banks with a city, so a revealed row always says where its bank is. Pure.
 */
import { germanMethods } from '../domain/iban/national/de/index.js';
import type { BankInfo } from './bank-directory.js';

/** Countries whose national check reads the bank's published method, with the methods the engine implements. */
const METHOD_COUNTRIES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['DE', new Set(germanMethods)],
]);

export function generationCandidates(
  countryCode: string,
  banks: readonly BankInfo[],
): readonly BankInfo[] {
  const methods = METHOD_COUNTRIES.get(countryCode);
  const checkable =
    methods === undefined
      ? banks
      : banks.filter(
          (bank) => bank.accountCheckMethod !== null && methods.has(bank.accountCheckMethod),
        );
  const located = checkable.filter((bank) => bank.city !== null);
  return located.length > 0 ? located : checkable;
}
