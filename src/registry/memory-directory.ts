import { createHash } from 'node:crypto';
import type { BankDirectory, BankFilter, BankInfo } from './bank-directory.js';
import type { ParsedSnapshot, RegistryRecord } from './record.js';

/** Record types that name a bank behind a national bank code. */
const bankRecordTypes = new Set(['bank', 'branch']);

/** Folding for name and city matching: case, diacritics and punctuation do not matter. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase().replace(/[^A-Z0-9]+/g, ' ').trim();
}

type MutableBank = { -readonly [K in keyof BankInfo]: BankInfo[K] };

function bankInfoOf(record: RegistryRecord, bankCode: string): MutableBank {
  return {
    countryCode: record.country_code,
    bankCode,
    bic: record.bic,
    name: record.legal_name ?? record.short_name,
    city: record.address.city,
    accountCheckMethod: record.account_checksum_method,
    lei: record.lei,
    legalName: record.legal_name,
    entityStatus: record.entity_status,
    registrationStatus: record.registration_status,
    paymentSchemes: [],
    sourceId: record.source_id,
  };
}

/** A later source fills only what earlier ones left empty: publisher files are loaded before npm-derived data. */
function fillGaps(target: MutableBank, extra: MutableBank): void {
  target.bic ??= extra.bic;
  target.name ??= extra.name;
  target.city ??= extra.city;
  target.accountCheckMethod ??= extra.accountCheckMethod;
  target.lei ??= extra.lei;
  target.legalName ??= extra.legalName;
}

function fingerprintOf(snapshots: readonly ParsedSnapshot[]): string {
  const hash = createHash('sha256');
  for (const snapshot of snapshots) {
    hash.update(`${snapshot.source_id}|${snapshot.source.version ?? ''}|${snapshot.snapshot_date ?? ''}|${snapshot.row_count}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The registry port over parsed snapshots held in memory: (country, bank code) -> bank. Main records
 * win over branch records of the same code, because the main record carries the bank's own name.
 */
export function createMemoryDirectory(snapshots: readonly ParsedSnapshot[]): BankDirectory {
  const banks = new Map<string, MutableBank>();
  for (const snapshot of snapshots) {
    for (const record of snapshot.records) {
      if (!bankRecordTypes.has(record.record_type)) continue;
      for (const code of record.domestic_codes) {
        const key = `${record.country_code}:${code.value}`;
        const info = bankInfoOf(record, code.value);
        const existing = banks.get(key);
        if (existing === undefined) banks.set(key, info);
        else if (record.record_type === 'bank' && existing.sourceId === record.source_id) fillGaps(info, existing), banks.set(key, info);
        else fillGaps(existing, info);
      }
    }
  }
  // country -> (bank code -> bank): lookups on the validation hot path build no key strings.
  const byCountry = new Map<string, Map<string, MutableBank>>();
  for (const bank of banks.values()) {
    const ofCountry = byCountry.get(bank.countryCode) ?? new Map<string, MutableBank>();
    ofCountry.set(bank.bankCode, bank);
    byCountry.set(bank.countryCode, ofCountry);
  }
  const codesByCountry = new Map<string, string[]>();
  for (const [countryCode, ofCountry] of byCountry) codesByCountry.set(countryCode, [...ofCountry.keys()].sort());
  const lookup = (countryCode: string, bankCode: string): BankInfo | undefined => byCountry.get(countryCode)?.get(bankCode);
  const fingerprint = fingerprintOf(snapshots);

  const matches = (bank: BankInfo, filter: BankFilter): boolean => {
    if (filter.bic !== undefined) {
      const bic = bank.bic ?? '';
      const wanted = filter.bic.length === 8 ? `${filter.bic}XXX` : filter.bic;
      if (bic !== wanted && !(filter.bic.length === 8 && bic.startsWith(filter.bic))) return false;
    }
    if (filter.name !== undefined && !foldText(bank.name ?? '').includes(foldText(filter.name))) return false;
    if (filter.city !== undefined && foldText(bank.city ?? '') !== foldText(filter.city)) return false;
    return true;
  };

  return {
    fingerprint,
    bankOf: lookup,
    bankCodesOf: (countryCode) => codesByCountry.get(countryCode) ?? [],
    accountCheckMethod: (countryCode, bankCode) => lookup(countryCode, bankCode)?.accountCheckMethod ?? undefined,
    banksMatching(countryCode, filter, limit) {
      const found: BankInfo[] = [];
      for (const code of codesByCountry.get(countryCode) ?? []) {
        const bank = lookup(countryCode, code);
        if (bank !== undefined && matches(bank, filter)) found.push(bank);
        if (found.length >= limit) break;
      }
      return found;
    },
  };
}
