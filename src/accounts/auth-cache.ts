/**
 * Raw API key -> account, held per thread so a keyed request costs a Map lookup: no SHA-256 of the key, and on a REST
 * front thread no call to the main thread. What keeps it true:
 * - An entry ages from the key store's read that produced it (`checkedAtMs`), wherever it is held: the main thread
 *   reads the store (a fresh read by id, see `storeLookup`), a front thread asks the main thread's cache and keeps
 *   the age it was given. No entry answers past `limits.caches.staleMsMax` (5 s) after that read, so a key revoked,
 *   or a plan changed, by another process (`ibanqa keys revoke` on LMDB or PostgreSQL) is seen within those 5 s on
 *   every thread, as the key stores' own caches promised before.
 * - A change this process makes or sees (a revocation through its state, a refresh that finds the account revoked or
 *   changed) is announced to `onChange` listeners: the main thread posts it to every front thread, which forgets the
 *   key at once.
 * - Pass expiry is checked on every request against the held account (`authenticate`), never cached.
 * - Only keys that authenticated are held (no negative cache): a new key is read on its first request, and what
 *   clients send cannot grow the map, which holds at most `limits.caches.authKeysMax` keys.
 */
import { limits } from '../limits.js';
import type { Account, Authenticator } from '../ports/accounts.js';
import type { CheckedAccount, KeyChanges, KeyResolver } from '../ports/key-resolver.js';
import { isWellFormedKey } from './keys.js';
import { assertActive } from './periods.js';

/** Reads a key's account afresh; `held` is what the cache had for it (expired), if anything. */
export type KeyLookup = (
  rawKey: string,
  now: Date,
  held: CheckedAccount | undefined,
) => Promise<CheckedAccount | null>;

export interface AuthCacheOptions {
  /** How long an entry answers after the store's read (limits.caches.staleMsMax unless given: tests shorten it). */
  readonly ttlMs?: number;
  /** How many keys it holds (limits.caches.authKeysMax unless given). */
  readonly capacity?: number;
}

function sameAccount(a: Account, b: Account): boolean {
  return (
    a.id === b.id &&
    a.plan === b.plan &&
    a.label === b.label &&
    a.created_at === b.created_at &&
    a.expires_at === b.expires_at
  );
}

/**
 * The lookup over the key store itself (the main thread). A miss verifies the raw key with `authenticate` (hash and
 * record), then reads the record by id: the store's own cache may answer `authenticate` from a read up to
 * staleMsMax old, and a raw key's id never changes (it is derived from the key's hash), so the id's record is the
 * key's state now. A refresh needs only that read by id: the key was verified when it was first held.
 */
export function storeLookup(store: Authenticator): KeyLookup {
  return async (rawKey, now, held) => {
    const account = held?.account ?? (await store.authenticate(rawKey, now));
    if (account === null) return null;
    const fresh = await store.accountById(account.id);
    return fresh === null ? null : { account: fresh, checkedAtMs: now.getTime() };
  };
}

export class AuthCache implements Authenticator, KeyResolver, KeyChanges {
  /** In insertion order, refreshed entries moved to the end: the first is the one to drop. */
  private readonly held = new Map<string, CheckedAccount>();
  /** One lookup per key at a time: concurrent first requests of a key share it. */
  private readonly lookups = new Map<string, Promise<CheckedAccount | null>>();
  private readonly listeners: ((keyId: string) => void)[] = [];
  /** Counts forgets: a lookup under way while a key was forgotten may have read it before the change. */
  private forgets = 0;
  private readonly ttlMs: number;
  private readonly capacity: number;

  constructor(
    private readonly lookup: KeyLookup,
    private readonly byId: (id: string) => Promise<Account | null>,
    options: AuthCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? limits.caches.staleMsMax;
    this.capacity = options.capacity ?? limits.caches.authKeysMax;
  }

  /** The cache over the key store (the main thread), with its id lookups passed through. */
  static over(store: Authenticator, options: AuthCacheOptions = {}): AuthCache {
    return new AuthCache(storeLookup(store), (id) => store.accountById(id), options);
  }

  async authenticate(rawKey: string, now: Date): Promise<Account | null> {
    const checked = await this.resolve(rawKey, now);
    if (checked === null) return null;
    assertActive(checked.account, now);
    return checked.account;
  }

  accountById(id: string): Promise<Account | null> {
    return this.byId(id);
  }

  resolve(rawKey: string, now: Date): Promise<CheckedAccount | null> {
    const held = this.held.get(rawKey);
    if (held !== undefined && now.getTime() - held.checkedAtMs <= this.ttlMs)
      return Promise.resolve(held);
    if (held === undefined && !isWellFormedKey(rawKey)) return Promise.resolve(null);
    let pending = this.lookups.get(rawKey);
    if (pending === undefined) {
      pending = this.refresh(rawKey, now, held);
      this.lookups.set(rawKey, pending);
      const done = () => this.lookups.delete(rawKey);
      pending.then(done, done);
    }
    return pending;
  }

  /** Drops every held key of this id (revoked or changed) and tells the listeners. */
  forget(keyId: string): void {
    for (const [rawKey, checked] of this.held)
      if (checked.account.id === keyId) this.held.delete(rawKey);
    this.forgets++;
    this.announce(keyId);
  }

  /** Hears the id of every key this cache forgot or found changed. */
  onChange(listener: (keyId: string) => void): void {
    this.listeners.push(listener);
  }

  /** Keys held now (tests). */
  get size(): number {
    return this.held.size;
  }

  private async refresh(
    rawKey: string,
    now: Date,
    held: CheckedAccount | undefined,
  ): Promise<CheckedAccount | null> {
    const forgets = this.forgets;
    const fresh = await this.lookup(rawKey, now, held);
    if (fresh === null) {
      if (held !== undefined) {
        this.held.delete(rawKey);
        this.announce(held.account.id);
      }
      return null;
    }
    if (held !== undefined && !sameAccount(held.account, fresh.account))
      this.announce(fresh.account.id);
    // Forgotten meanwhile: this read may predate the change, so it answers this request and is not held.
    if (forgets === this.forgets) this.remember(rawKey, fresh);
    return fresh;
  }

  private remember(rawKey: string, checked: CheckedAccount): void {
    this.held.delete(rawKey);
    this.held.set(rawKey, checked);
    if (this.held.size > this.capacity) {
      const oldest = this.held.keys().next();
      if (oldest.done !== true) this.held.delete(oldest.value);
    }
  }

  private announce(keyId: string): void {
    for (const listener of this.listeners) listener(keyId);
  }
}
