/**
 * Accounts and API keys in one LMDB environment at `<dataDir>/accounts`. Each key is an account
 * (one plan, one allowance). Only the SHA-256 of a key is stored; the raw key is shown once.
 *
 * Single-writer assumption: one service process owns the environment. Key writes are synchronous
 * (committed when the call returns, and on disk by then or at close, see LedgerDurability), so a CLI run
 * while the service is stopped is always safe.
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { open, type Database, type RootDatabase } from 'lmdb';
import { assert } from '../assert.js';
import type { Account } from '../ports/accounts.js';
import {
  accountOf,
  issueKey,
  verifiedAccount,
  type CreatedKey,
  type KeyRecord,
} from './key-records.js';
import { hashKey, isWellFormedKey, keyIdOf } from './keys.js';
import { assertActive } from './periods.js';
import { planIds, type PlanId } from '../domain/plans/plans.js';
import { PendingWrites } from './pending-writes.js';
import { limits } from '../limits.js';
import type { LedgerDurability } from './ledger-durability.js';

const ENV_DIR = 'accounts';

/** keys, usage and keyless, plus headroom so a later sub-database needs no migration of this setting. */
const MAX_DBS = 8;

export type SubDatabaseName = 'usage' | 'keyless' | 'idempotency' | 'watches' | 'statement_reviews';

export type { Account } from '../ports/accounts.js';
export { type CreatedKey } from './key-records.js';

/** A listing row: no raw key, no hash. */
export interface KeyInfo extends Account {
  readonly revoked_at: string | null;
}

export class AccountStore {
  /**
   * hash → account for keys that authenticated. Only successful lookups are cached, so the map is
   * bounded by the number of live keys, never by what clients send.
   */
  private readonly cache = new Map<
    string,
    { readonly account: Account; readonly checkedAtMs: number }
  >();
  private readonly flushHooks: (() => void)[] = [];
  private readonly revokeListeners: ((id: string) => void)[] = [];
  private readonly writes = new PendingWrites();
  /** Counters waiting for the next coalesced write: the latest value per key wins. */
  private readonly coalesced = new Map<Database<unknown, string>, Map<string, () => unknown>>();
  private coalesceTimer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly env: RootDatabase,
    private readonly keys: Database<KeyRecord, string>,
    private readonly durability: LedgerDurability,
  ) {}

  static open(dataDir: string, durability: LedgerDurability = 'disk'): AccountStore {
    const envPath = path.join(dataDir, ENV_DIR);
    fs.mkdirSync(envPath, { recursive: true });
    const env = open({ path: envPath, maxDbs: MAX_DBS, noSync: durability === 'process' });
    return new AccountStore(env, env.openDB<KeyRecord, string>({ name: 'keys' }), durability);
  }

  /** A named sub-database of the same environment, for the meter and the keyless limit. */
  subDatabase<V>(name: SubDatabaseName): Database<V, string> {
    return this.env.openDB<V, string>({ name });
  }

  createKey(plan: PlanId, now: Date, label?: string): CreatedKey {
    const { record, key } = issueKey(plan, now, label, (id) => this.keys.get(id) !== undefined);
    this.keys.putSync(record.id, record);
    return { ...accountOf(record), key };
  }

  /**
   * null for a malformed, unknown or revoked key (401). Throws AppError payment_required for an
   * expired 24h Pass: the key is genuine but no longer buys anything (402).
   */
  authenticate(rawKey: string, now: Date): Account | null {
    if (!isWellFormedKey(rawKey)) return null;
    const hash = hashKey(rawKey);
    const cached = this.cache.get(hash);
    let account = cached?.account;
    if (cached === undefined || now.getTime() - cached.checkedAtMs > limits.caches.staleMsMax) {
      account = verifiedAccount(this.keys.get(keyIdOf(hash)), hash) ?? undefined;
      if (account === undefined) {
        this.cache.delete(hash);
        return null;
      }
      this.cache.set(hash, { account, checkedAtMs: now.getTime() });
    }
    assert(account !== undefined, 'an authenticated key has an account');
    assertActive(account, now);
    return account;
  }

  /** The active account of a key id (usage reads); null when the id is unknown or revoked. */
  accountById(id: string): Account | null {
    const record = this.keys.get(id);
    return record === undefined || record.revoked_at !== null ? null : accountOf(record);
  }

  listKeys(): KeyInfo[] {
    const rows: KeyInfo[] = [];
    for (const { value } of this.keys.getRange())
      rows.push({ ...accountOf(value), revoked_at: value.revoked_at });
    return rows.sort(
      (a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
    );
  }

  /** false when no such key exists or it was already revoked. Takes effect on the next request. */
  revokeKey(id: string, now: Date = new Date()): boolean {
    const record = this.keys.get(id);
    if (record === undefined || record.revoked_at !== null) return false;
    this.keys.putSync(id, { ...record, revoked_at: now.toISOString() });
    this.cache.delete(record.hash);
    for (const listener of this.revokeListeners) listener(id);
    return true;
  }

  /** Hears every key this process revokes (a key cache in front of the store forgets it at once). */
  onRevoke(listener: (id: string) => void): void {
    this.revokeListeners.push(listener);
  }

  /**
   * First start only: one key per plan so a fresh install can be tried at once. Returns the raw
   * keys for printing once; on any store that has ever held a key it does nothing and returns [].
   */
  ensureDemoKeys(now: Date): CreatedKey[] {
    return this.env.transactionSync(() => {
      if (this.keys.getKeysCount() > 0) return [];
      return planIds.map((plan) => this.createKey(plan, now, `demo ${plan}`));
    });
  }

  /**
   * A counter written at most limits.accounts.usageWriteDelayMs later: many updates of one key in that window become
   * one write of its latest value, read from `value` when the write happens.
   */
  putCoalesced<V>(db: Database<V, string>, key: string, value: () => V): void {
    const target = db as Database<unknown, string>;
    let pending = this.coalesced.get(target);
    if (pending === undefined)
      this.coalesced.set(target, (pending = new Map<string, () => unknown>()));
    pending.set(key, value);
    if (this.coalesceTimer === null) {
      // unref: a pending write never keeps the process alive; close() writes it.
      this.coalesceTimer = setTimeout(
        () => this.writeCoalesced(),
        limits.accounts.usageWriteDelayMs,
      ).unref();
    }
  }

  /** Keys waiting for the next coalesced write (for tests and shutdown checks). */
  get coalescedWritesPending(): number {
    let count = 0;
    for (const pending of this.coalesced.values()) count += pending.size;
    return count;
  }

  removeAsync<V>(db: Database<V, string>, key: string): void {
    // A coalesced put of the same key must not land after its removal.
    this.writeCoalesced();
    this.track(db.remove(key));
  }

  /** Writers that hold writes for the end of a turn (the meter) issue them before a flush or close. */
  beforeFlush(issue: () => void): void {
    this.flushHooks.push(issue);
  }

  /** Resolves when every write issued so far, coalesced ones included, is committed; rethrows a failed one once. */
  async flushWrites(): Promise<void> {
    for (const issue of this.flushHooks) issue();
    this.writeCoalesced();
    await this.writes.flush();
  }

  /**
   * Commits pending asynchronous writes, then closes; a write failure is rethrown after closing. Without
   * per-commit flushes (`process`), a clean stop still leaves everything on disk: one forced sync first.
   */
  async close(): Promise<void> {
    this.cache.clear();
    try {
      await this.flushWrites();
      if (this.durability === 'process') await this.syncToDisk();
    } finally {
      await this.env.close();
    }
  }

  private syncToDisk(): Promise<void> {
    // lmdb-js's RootDatabase.sync (mdb_env_sync with force, on a libuv thread) is missing from its typings.
    const env = this.env as unknown as { sync(done: (error?: unknown) => void): void };
    return promisify(env.sync.bind(env))();
  }

  private writeCoalesced(): void {
    if (this.coalesceTimer !== null) clearTimeout(this.coalesceTimer);
    this.coalesceTimer = null;
    for (const [db, pending] of this.coalesced)
      for (const [key, value] of pending) this.track(db.put(key, value()));
    this.coalesced.clear();
  }

  private track(write: Promise<boolean>): void {
    this.writes.track(write).catch(() => undefined); // kept and rethrown by flushWrites()
  }
}
