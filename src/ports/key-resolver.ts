import type { Account } from './accounts.js';

/** A key's account as the key store said it at `checkedAtMs` (ms since the epoch, the service clock). */
export interface CheckedAccount {
  readonly account: Account;
  readonly checkedAtMs: number;
}

/**
 * Raw API key -> the account the key store held for it, no older than the resolver's bound: the main thread's key
 * cache (src/accounts/auth-cache.ts) answers its front threads' caches through this, so a front thread's entry
 * ages from the main thread's read of the store, not from its own copy.
 */
export interface KeyResolver {
  /**
   * null for a malformed, unknown or revoked key. Rejects with AppError payment_required for an expired 24h Pass
   * read from the store (a held one is returned as it is: its holder checks expiry per request).
   */
  resolve(rawKey: string, now: Date): Promise<CheckedAccount | null>;
}

/** Where a key cache announces the keys it forgot or found changed (the main thread posts them to its front threads). */
export interface KeyChanges {
  onChange(listener: (keyId: string) => void): void;
}
