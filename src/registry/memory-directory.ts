import { createHash } from 'node:crypto';
import type { BankDirectory, BankInfo } from './bank-directory.js';
import { matchBanks } from './bank-match.js';
import { BankKeys } from './bank-keys.js';
import { deadReason, generationCandidates, stillListed } from './generation-banks.js';
import type { ParsedSnapshot, RegistryRecord } from './record.js';

/** Record types that name a bank behind a national bank code. */
const bankRecordTypes = new Set(['bank', 'branch']);

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
    live: deadReason(record) === null,
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
  target.live &&= extra.live;
}

function fingerprintOf(snapshots: readonly ParsedSnapshot[]): string {
  const hash = createHash('sha256');
  for (const snapshot of snapshots) {
    hash.update(
      `${snapshot.source_id}|${snapshot.source.version ?? ''}|${snapshot.snapshot_date ?? ''}|${snapshot.row_count}\n`,
    );
  }
  return hash.digest('hex').slice(0, 16);
}

/** One bank per (country, bank code) over every snapshot, in load order. */
function mergedBanks(snapshots: readonly ParsedSnapshot[]): Map<string, MutableBank> {
  const banks = new Map<string, MutableBank>();
  for (const snapshot of snapshots) {
    for (const record of snapshot.records) {
      if (!bankRecordTypes.has(record.record_type)) continue;
      for (const code of record.domestic_codes) {
        const key = `${record.country_code}:${code.value}`;
        const info = bankInfoOf(record, code.value);
        const existing = banks.get(key);
        if (existing === undefined) banks.set(key, info);
        else if (record.record_type === 'bank' && existing.sourceId === record.source_id) {
          fillGaps(info, existing);
          banks.set(key, info);
        } else fillGaps(existing, info);
      }
    }
  }
  return banks;
}

/** 'CC:code' of the main records of a snapshot, for the codes it lists. */
function listedCodes(snapshot: ParsedSnapshot): Set<string> {
  const codes = new Set<string>();
  for (const record of snapshot.records) {
    if (!bankRecordTypes.has(record.record_type)) continue;
    for (const code of record.domestic_codes) codes.add(`${record.country_code}:${code.value}`);
  }
  return codes;
}

/**
 * As the LMDB directory reads change events: a code an earlier snapshot of a source listed and its last
 * snapshot does not is removed, unless another source's last snapshot, as new or newer, lists it.
 */
function markRemoved(snapshots: readonly ParsedSnapshot[], banks: Map<string, MutableBank>): void {
  const last = new Map(snapshots.map((snapshot) => [snapshot.source_id, snapshot]));
  const lastListed = new Map([...last].map(([id, snapshot]) => [id, listedCodes(snapshot)]));
  for (const snapshot of snapshots) {
    const final = last.get(snapshot.source_id);
    if (final === undefined || final === snapshot || final.snapshot_date === null) continue;
    const removedOn = final.snapshot_date;
    for (const key of listedCodes(snapshot)) {
      if (lastListed.get(snapshot.source_id)?.has(key) === true) continue;
      const listedOn = [...last.values()]
        .filter((other) => lastListed.get(other.source_id)?.has(key) === true)
        .map((other) => other.snapshot_date);
      const bank = banks.get(key);
      if (bank !== undefined && !stillListed(removedOn, listedOn)) bank.live = false;
    }
  }
}

/** country -> (bank code -> bank): lookups on the validation hot path build no key strings. */
function byCountryOf(banks: Map<string, MutableBank>): Map<string, Map<string, MutableBank>> {
  const byCountry = new Map<string, Map<string, MutableBank>>();
  for (const bank of banks.values()) {
    const ofCountry = byCountry.get(bank.countryCode) ?? new Map<string, MutableBank>();
    ofCountry.set(bank.bankCode, bank);
    byCountry.set(bank.countryCode, ofCountry);
  }
  return byCountry;
}

/**
 * The registry port over parsed snapshots held in memory: (country, bank code) -> bank. Main records
 * win over branch records of the same code, because the main record carries the bank's own name.
 */
export function createMemoryDirectory(snapshots: readonly ParsedSnapshot[]): BankDirectory {
  const merged = mergedBanks(snapshots);
  markRemoved(snapshots, merged);
  const byCountry = byCountryOf(merged);
  const codesByCountry = new Map<string, string[]>();
  const banksByCountry = new Map<string, BankInfo[]>();
  for (const [countryCode, ofCountry] of byCountry) {
    const codes = [...ofCountry.keys()].sort();
    codesByCountry.set(countryCode, codes);
    banksByCountry.set(
      countryCode,
      codes.map((code) => ofCountry.get(code) as BankInfo),
    );
  }
  const lookup = (countryCode: string, bankCode: string): BankInfo | undefined =>
    byCountry.get(countryCode)?.get(bankCode);
  const candidatesByCountry = new Map(
    [...banksByCountry].map(([countryCode, list]) => [
      countryCode,
      generationCandidates(countryCode, list),
    ]),
  );
  const fingerprint = fingerprintOf(snapshots);
  const noBanks: ReadonlyMap<string, BankInfo> = new Map();
  const keys = new BankKeys((countryCode) => byCountry.get(countryCode) ?? noBanks);

  return {
    fingerprint,
    /** Built once from fixed snapshots: there is only ever version 0. */
    syncVersion: () => 0,
    bankOf: lookup,
    bankIds: () => keys,
    bankCodesOf: (countryCode) => codesByCountry.get(countryCode) ?? [],
    banksOf: (countryCode) => banksByCountry.get(countryCode) ?? [],
    generationBanksOf: (countryCode) => candidatesByCountry.get(countryCode) ?? [],
    accountCheckMethod: (countryCode, bankCode) =>
      lookup(countryCode, bankCode)?.accountCheckMethod ?? undefined,
    banksMatching: (countryCode, filter, limit) =>
      matchBanks(countryCode, banksByCountry.get(countryCode) ?? [], filter, limit),
  };
}
