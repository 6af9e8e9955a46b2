/**
 * Read side of the ledger for GET /usage: a key's account and its balances at the service clock.
 * The op gets this reader through its run context (never the meter itself), so it can only read.
 */
import type { Account } from './accounts.js';
import type { Balance } from './credits.js';

export interface KeyUsage {
  readonly account: Account;
  readonly balance: Balance;
  /** The instant the balance was read (the service clock). */
  readonly at: Date;
}

export interface UsageReader {
  /** null when the key id is unknown or was revoked since it authenticated. */
  usageOf(keyId: string): Promise<KeyUsage | null>;
}
