/**
 * A directory's banks by number, for the validation hot path: per country (by its index in countryFormats), a Map
 * from bank key to a bank id, built from the country's code -> bank map on the first question about the country.
 * A Map with small integer keys hashes no string, where bankOf's Map hashes the bank code (a fresh slice of each
 * IBAN), and an id lets a caller keep what it derives from a bank in a plain array instead of a WeakMap keyed by
 * the bank object. Ids are dense (0, 1, 2, ... in the order countries are first asked about) and belong to this
 * object: its owner replaces it whenever its data changes (a registry version), as it replaces its code maps.
 */
import { bankCodeKey, countryFormats } from '../domain/iban/index.js';
import type { BankIds, BankInfo } from './bank-directory.js';

export class BankKeys implements BankIds {
  private readonly idsByCountry: (ReadonlyMap<number, number> | undefined)[] = [];
  private readonly banks: BankInfo[] = [];

  /** `banksOf` gives a country's code -> bank map, the one bankOf reads. */
  constructor(private readonly banksOf: (countryCode: string) => ReadonlyMap<string, BankInfo>) {}

  idOf(countryIndex: number, bankKey: number): number {
    return (this.idsByCountry[countryIndex] ?? this.load(countryIndex)).get(bankKey) ?? -1;
  }

  bankOf(id: number): BankInfo {
    return this.banks[id] as BankInfo;
  }

  private load(countryIndex: number): ReadonlyMap<number, number> {
    const ids = new Map<number, number>();
    const format = countryFormats[countryIndex];
    if (format !== undefined) {
      for (const [code, bank] of this.banksOf(format.code)) {
        const key = bankCodeKey(countryIndex, code);
        // A code no IBAN of the country can carry (another length or layout) is never asked for by key.
        if (key < 0) continue;
        ids.set(key, this.banks.length);
        this.banks.push(bank);
      }
    }
    this.idsByCountry[countryIndex] = ids;
    return ids;
  }
}
