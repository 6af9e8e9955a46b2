/** The ledger's UsageReader (src/ports/usage.ts): accounts and balances read at the service clock. */
import type { UsageReader } from '../ports/usage.js';
import type { Account } from './account-store.js';
import type { Balance } from './meter.js';

export type { KeyUsage, UsageReader } from '../ports/usage.js';

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
