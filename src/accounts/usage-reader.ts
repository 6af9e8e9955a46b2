/**
 * Read side of the ledger for GET /usage: a key's account and its balances at the service clock.
 * The op gets this reader through its run context (never the meter itself), so it can only read.
 */
import type { Account } from './account-store.js';
import type { Balance } from './meter.js';

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

export interface AccountsById {
  /** The account store answers at once; the state ports (LMDB or the shared database) with a Promise. */
  accountById(id: string): Account | null | Promise<Account | null>;
}

export interface BalanceSource {
  balance(account: Account, now: Date): Balance | Promise<Balance>;
}

export function ledgerUsageReader(
  accounts: AccountsById,
  meter: BalanceSource,
  now: () => Date,
): UsageReader {
  return {
    async usageOf(keyId) {
      const account = await accounts.accountById(keyId);
      if (account === null) return null;
      const at = now();
      return { account, balance: await meter.balance(account, at), at };
    },
  };
}
