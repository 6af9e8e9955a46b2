/**
 * The synchronous stores of this folder behind the asynchronous port interfaces. Each store is a single
 * writer on the main thread, so its check-and-count steps cannot interleave; the LMDB ports and the
 * in-memory ports are the same stores over different tables.
 */
import type { Account, StatePorts } from '../ports/index.js';
import type { Watch } from '../ports/watches.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { KeylessLimit } from './keyless-limit.js';
import type { Meter } from './meter.js';
import type { Table } from './table.js';
import { TableWatchStore } from './watch-store.js';

export interface SyncStores {
  authenticate(rawKey: string, now: Date): Account | null;
  accountById(id: string): Account | null;
  readonly ledger: Meter;
  readonly keyless: KeylessLimit;
  readonly records: IdempotencyStore;
  readonly watches: Table<Watch>;
}

export function portsOver(stores: SyncStores): StatePorts {
  const { ledger, keyless, records } = stores;
  return {
    authenticator: {
      authenticate: async (rawKey, now) => stores.authenticate(rawKey, now),
      accountById: async (id) => stores.accountById(id),
    },
    meter: {
      reserve: async (account, debits, now) => ledger.reserve(account, debits, now),
      commit: (reservation, actual) => ledger.commit(reservation, actual),
      refund: async (reservation) => ledger.refund(reservation),
      charge: (reservation, actual) => ledger.charge(reservation, actual),
      refundCommitted: (charge) => ledger.refundCommitted(charge),
      balance: async (account, now) => ledger.balance(account, now),
    },
    keyless: {
      take: async (ip, items, now) => keyless.take(ip, items, now),
      refund: async (ip, items, now) => keyless.refund(ip, items, now),
    },
    idempotency: { claim: async (keyId, request, now) => records.claim(keyId, request, now) },
    watches: new TableWatchStore(stores.watches),
    async flush() {
      await Promise.all([ledger.flush(), records.flush(), keyless.flush()]);
    },
  };
}
