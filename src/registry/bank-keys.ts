/**
 * A directory's banks by number, for bankByKey: per country (by its index in countryFormats), a Map from bank key
 * to bank, built from the country's code -> bank map on the first question about the country. A Map with small
 * integer keys hashes no string, where bankOf's Map hashes the bank code (a fresh slice of each IBAN). The owner
 * drops the whole index when its data changes (a registry version), as it drops its code maps.
 */
import { bankCodeKey, countryFormats } from '../domain/iban/index.js';
import type { BankInfo } from './bank-directory.js';

export class BankKeys {
  private readonly byCountry: (ReadonlyMap<number, BankInfo> | undefined)[] = [];

  /** `banksOf` gives a country's code -> bank map, the one bankOf reads. */
  constructor(private readonly banksOf: (countryCode: string) => ReadonlyMap<string, BankInfo>) {}

  bankByKey(countryIndex: number, bankKey: number): BankInfo | undefined {
    return (this.byCountry[countryIndex] ?? this.load(countryIndex)).get(bankKey);
  }

  private load(countryIndex: number): ReadonlyMap<number, BankInfo> {
    const keyed = new Map<number, BankInfo>();
    const format = countryFormats[countryIndex];
    if (format !== undefined) {
      for (const [code, bank] of this.banksOf(format.code)) {
        const key = bankCodeKey(countryIndex, code);
        // A code no IBAN of the country can carry (another length or layout) is never asked for by key.
        if (key >= 0) keyed.set(key, bank);
      }
    }
    this.byCountry[countryIndex] = keyed;
    return keyed;
  }
}
