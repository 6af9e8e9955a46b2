/**
 * The BankDirectory port over the LMDB registry. Validation asks it about every row, so per-lookup cost
 * matters: the first question about a country (or preload, which the service runs before it listens)
 * loads that country's banks from the IBAN bank-code index into a Map (DE, about 3,600 codes, loads in tens
 * of milliseconds), and every later question is a Map read. The cache drops itself when an import goes through the
 * handle it reads, when the service asks for the current version (syncVersion, on every request), and otherwise
 * within limits.caches.staleMsMax of an import by another process (the CLI).
 */
import type { BankDirectory, BankFilter, BankIds, BankInfo } from './bank-directory.js';
import { matchBanks } from './bank-match.js';
import { BankKeys } from './bank-keys.js';
import {
  generationCandidates,
  recordsLive,
  removedKey,
  stillListed,
  type RemovedCodes,
} from './generation-banks.js';
import { ibanBankCodesOf } from './store/index-keys.js';
import type { RegistryStore } from './store/registry-store.js';
import type { StoredRecord, StoredSource } from './store/types.js';
import { limits } from '../limits.js';

let epoch = 0;
setInterval(() => {
  epoch++;
}, limits.caches.staleMsMax).unref();

type MutableBank = { -readonly [K in keyof BankInfo]: BankInfo[K] };

interface CountryBanks {
  readonly codes: readonly string[];
  readonly banks: ReadonlyMap<string, BankInfo>;
  /** The banks of `codes`, same order. */
  readonly list: readonly BankInfo[];
  /** The generation candidates among them, same order. */
  readonly candidates: readonly BankInfo[];
}

const typeRank: Readonly<Record<string, number>> = { bank: 0, bank_code_range: 0, branch: 1 };

/** One code's records in precedence order: source rank, then bank before branch, then record id. */
function sortByPrecedence(records: StoredRecord[], rank: ReadonlyMap<string, number>): void {
  records.sort(
    (a, b) =>
      (rank.get(a.source_id) ?? 0) - (rank.get(b.source_id) ?? 0) ||
      (typeRank[a.record_type] ?? 1) - (typeRank[b.record_type] ?? 1) ||
      a.record_id - b.record_id,
  );
}

export class LmdbDirectory implements BankDirectory {
  private countries = new Map<string, CountryBanks>();
  private keys = this.newKeys();
  private removed: RemovedCodes | undefined;
  private identity: { fingerprint: string; version: number };
  private checkedEpoch = epoch;

  constructor(readonly registry: RegistryStore) {
    this.identity = registry.identity();
    registry.onChange(() => this.reset());
  }

  /**
   * A directory over `registry` that keeps the countries `loaded` built from another handle on the same registry,
   * when both read the same version (otherwise it starts empty, as a version change would leave it).
   */
  static continuing(registry: RegistryStore, loaded: LmdbDirectory): LmdbDirectory {
    const directory = new LmdbDirectory(registry);
    if (directory.identity.version === loaded.identity.version)
      directory.countries = loaded.countries;
    return directory;
  }

  get fingerprint(): string {
    this.recheck();
    return this.identity.fingerprint;
  }

  get version(): number {
    this.recheck();
    return this.identity.version;
  }

  bankOf(countryCode: string, bankCode: string): BankInfo | undefined {
    return this.country(countryCode).banks.get(bankCode);
  }

  bankIds(): BankIds {
    this.recheck();
    return this.keys;
  }

  bankCodesOf(countryCode: string): readonly string[] {
    return this.country(countryCode).codes;
  }

  banksOf(countryCode: string): readonly BankInfo[] {
    return this.country(countryCode).list;
  }

  generationBanksOf(countryCode: string): readonly BankInfo[] {
    return this.country(countryCode).candidates;
  }

  accountCheckMethod(countryCode: string, bankCode: string): string | undefined {
    return this.country(countryCode).banks.get(bankCode)?.accountCheckMethod ?? undefined;
  }

  banksMatching(countryCode: string, filter: BankFilter, limit: number): readonly BankInfo[] {
    return matchBanks(countryCode, this.country(countryCode).list, filter, limit);
  }

  /**
   * Builds the bank maps of these countries now rather than on their first request. The service calls it
   * before it listens: measured, the first 100-IBAN validate after start took about 220 ms while the maps
   * were built (and their objects pushed through the young generation) on demand.
   */
  preload(countryCodes: readonly string[]): void {
    for (const countryCode of countryCodes) this.country(countryCode);
  }

  syncVersion(): number {
    const version = this.registry.currentVersion();
    if (version !== this.identity.version) this.reset();
    this.checkedEpoch = epoch;
    return version;
  }

  private newKeys(): BankKeys {
    return new BankKeys((countryCode) => this.country(countryCode).banks);
  }

  private reset(): void {
    this.countries = new Map();
    this.keys = this.newKeys();
    this.removed = undefined;
    this.identity = this.registry.identity();
  }

  private recheck(): void {
    if (this.checkedEpoch === epoch) return;
    this.checkedEpoch = epoch;
    if (this.registry.identity().version !== this.identity.version) this.reset();
  }

  private country(countryCode: string): CountryBanks {
    this.recheck();
    const cached = this.countries.get(countryCode);
    if (cached !== undefined) return cached;
    const loaded = this.load(countryCode);
    this.countries.set(countryCode, loaded);
    return loaded;
  }

  /**
   * The index lists a code's records together (keys in order), so each code is merged as soon as its records are
   * read: only one code's decoded records (about 5 KB each) are alive at a time, and they die young instead of a
   * whole country's (DE: tens of MB) being promoted to the old generation and left there as garbage.
   */
  private load(countryCode: string): CountryBanks {
    const prefix = `${countryCode}|`;
    const sources = this.registry.sources();
    const rank = sourceRanks(sources);
    const dates = this.sourceDates(sources);
    this.removed ??= this.removedCodes(sources);
    const removed = this.removed;
    const banks = new Map<string, BankInfo>();
    let code: string | undefined;
    let group: StoredRecord[] = [];
    const flush = () => {
      if (code !== undefined && group.length > 0) {
        sortByPrecedence(group, rank);
        const removedOn = removed.get(removedKey(countryCode, code));
        const live =
          recordsLive(group) &&
          (removedOn === undefined ||
            stillListed(
              removedOn,
              group.map((record) => dates.get(record.source_id) ?? null),
            ));
        banks.set(code, this.merge(code, group, live));
      }
      group = [];
    };
    for (const { key, id } of this.registry.idsWithPrefix('ibanCode', prefix)) {
      const keyCode = key.slice(prefix.length);
      if (keyCode !== code) {
        flush();
        code = keyCode;
      }
      const record = this.registry.recordUncached(id);
      if (record !== undefined) group.push(record);
    }
    flush();
    const codes = [...banks.keys()].sort();
    const list = codes.map((code) => banks.get(code) as BankInfo);
    return { codes, banks, list, candidates: generationCandidates(countryCode, list) };
  }

  private sourceDates(sources: readonly StoredSource[]): Map<string, string | null> {
    return new Map(
      sources.map((source) => [
        source.source_id,
        this.registry.snapshot(source.current_snapshot_id)?.snapshot_date ?? null,
      ]),
    );
  }

  /**
   * Every bank code a snapshot removed, with the removal's snapshot date (the latest when several): read from
   * the change events once per registry version, at most limits.registry.removalEventsMax events per source.
   */
  private removedCodes(sources: readonly StoredSource[]): RemovedCodes {
    const removed = new Map<string, string>();
    for (const source of sources) {
      if (source.snapshot_ids.length < 2) continue;
      const events = this.registry.events({
        sourceId: source.source_id,
        limit: limits.registry.removalEventsMax,
      });
      for (const event of events) {
        if (event.change_type !== 'removed' || event.snapshot_date === null) continue;
        if (event.previous_snapshot_id === null) continue;
        const record = this.registry.snapshotRecord(event.previous_snapshot_id, event.record_id);
        // A branch record going away leaves its bank's code alone.
        if (record === undefined || record.record_type === 'branch') continue;
        for (const code of ibanBankCodesOf(record)) {
          const key = removedKey(record.country_code, code);
          const before = removed.get(key);
          if (before === undefined || before < event.snapshot_date)
            removed.set(key, event.snapshot_date);
        }
      }
    }
    return removed;
  }

  /** The first record by source rank speaks; later ones only fill what it leaves empty. */
  private merge(code: string, records: readonly StoredRecord[], live: boolean): BankInfo {
    const [first, ...rest] = records as [StoredRecord, ...StoredRecord[]];
    const bank: MutableBank = {
      countryCode: first.country_code,
      bankCode: code,
      bic: first.bic,
      name: first.legal_name ?? first.short_name,
      city: first.address.city,
      accountCheckMethod: first.account_checksum_method,
      lei: first.lei,
      legalName: first.legal_name,
      entityStatus: first.entity_status,
      registrationStatus: first.registration_status,
      paymentSchemes: [],
      sourceId: first.source_id,
      live,
    };
    for (const other of rest) {
      bank.bic ??= other.bic;
      bank.name ??= other.legal_name ?? other.short_name;
      bank.city ??= other.address.city;
      bank.accountCheckMethod ??= other.account_checksum_method;
      bank.lei ??= other.lei;
      bank.legalName ??= other.legal_name;
    }
    this.linkGleif(bank);
    return bank;
  }

  /**
   * GLEIF speaks for the legal entity: when an imported record links this bank code (or its BIC) to an
   * LEI, the GLEIF record of that LEI gives legal_name, entity_status and registration_status, and the city of
   * its legal address when no bank-code source has one. A BIC
   * links only when every record carrying it names the same LEI.
   */
  private linkGleif(bank: MutableBank): void {
    if (bank.lei === null && bank.bic !== null) {
      const leis = new Set(
        this.registry
          .idsAt(
            'bic11',
            bank.bic.length === 8 ? `${bank.bic}XXX` : bank.bic,
            limits.registry.linkCandidatesMax,
          )
          .flatMap((id) => this.registry.recordUncached(id)?.lei ?? []),
      );
      if (leis.size === 1) bank.lei = [...leis][0] ?? null;
    }
    if (bank.lei === null) return;
    const entity = this.registry
      .idsAt('lei', bank.lei, limits.registry.linkCandidatesMax)
      .map((id) => this.registry.recordUncached(id))
      .find((record) => record?.record_type === 'legal_entity');
    if (entity === undefined) return;
    bank.legalName = entity.legal_name ?? bank.legalName;
    // The legal address city, where no bank-code source gave one (GLEIF LegalAddress/City as published).
    bank.city ??= entity.address.city;
    bank.entityStatus = entity.entity_status;
    bank.registrationStatus = entity.registration_status;
  }
}

/** Publisher files first, npm-embedded data after; within each, the source imported first first. */
export function sourceRanks(sources: readonly StoredSource[]): Map<string, number> {
  const ordered = [...sources].sort(
    (a, b) =>
      Number(a.origin === 'embedded') - Number(b.origin === 'embedded') ||
      (a.snapshot_ids[0] ?? 0) - (b.snapshot_ids[0] ?? 0),
  );
  return new Map(ordered.map((source, index) => [source.source_id, index]));
}

/**
 * A directory opened on first use. Pool workers start while the main thread may still be building the
 * registry on first start, so a worker must not open the environment before its first task.
 */
export class LazyLmdbDirectory implements BankDirectory {
  private opened: LmdbDirectory | undefined;

  constructor(private readonly openDirectory: () => LmdbDirectory) {}

  private get directory(): LmdbDirectory {
    this.opened ??= this.openDirectory();
    return this.opened;
  }

  get registry(): RegistryStore {
    return this.directory.registry;
  }

  get fingerprint(): string {
    return this.directory.fingerprint;
  }

  syncVersion(): number {
    return this.directory.syncVersion();
  }

  bankOf(countryCode: string, bankCode: string): BankInfo | undefined {
    return this.directory.bankOf(countryCode, bankCode);
  }

  bankIds(): BankIds {
    return this.directory.bankIds();
  }

  bankCodesOf(countryCode: string): readonly string[] {
    return this.directory.bankCodesOf(countryCode);
  }

  banksOf(countryCode: string): readonly BankInfo[] {
    return this.directory.banksOf(countryCode);
  }

  generationBanksOf(countryCode: string): readonly BankInfo[] {
    return this.directory.generationBanksOf(countryCode);
  }

  accountCheckMethod(countryCode: string, bankCode: string): string | undefined {
    return this.directory.accountCheckMethod(countryCode, bankCode);
  }

  banksMatching(countryCode: string, filter: BankFilter, limit: number): readonly BankInfo[] {
    return this.directory.banksMatching(countryCode, filter, limit);
  }
}
