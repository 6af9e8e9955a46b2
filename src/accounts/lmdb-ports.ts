/**
 * The LMDB implementation of the state ports: the synchronous stores of this folder (each a single
 * writer on the main thread, so check-and-count steps cannot interleave) behind the asynchronous port
 * interfaces the service is written against.
 */
import type { StatePorts } from '../ports/index.js';
import type { Watch } from '../ports/watches.js';
import type { AccountStore } from './account-store.js';
import { IdempotencyStore } from './idempotency-store.js';
import { KeylessLimit } from './keyless-limit.js';
import { Meter } from './meter.js';
import { TableWatchStore } from './watch-store.js';

export interface LmdbPorts extends StatePorts {
  /** The ledger itself, for tests and the CLI's balances. */
  readonly ledger: Meter;
  /** The idempotency records store itself (sweeps, tests). */
  readonly records: IdempotencyStore;
}

export function lmdbPorts(store: AccountStore): LmdbPorts {
  const ledger = Meter.open(store);
  const keyless = new KeylessLimit(store);
  const idempotency = IdempotencyStore.open(store);
  return {
    ledger,
    records: idempotency,
    authenticator: { authenticate: async (rawKey, now) => store.authenticate(rawKey, now) },
    meter: {
      reserve: async (account, debits, now) => ledger.reserve(account, debits, now),
      commit: (reservation, actual) => ledger.commit(reservation, actual),
      refund: async (reservation) => ledger.refund(reservation),
      balance: async (account, now) => ledger.balance(account, now),
    },
    keyless: {
      take: async (ip, items, now) => keyless.take(ip, items, now),
      refund: async (ip, items, now) => keyless.refund(ip, items, now),
    },
    idempotency: { claim: async (keyId, request, now) => idempotency.claim(keyId, request, now) },
    watches: new TableWatchStore(store.subDatabase<Watch>('watches')),
    async flush() {
      await Promise.all([ledger.flush(), idempotency.flush(), keyless.flush()]);
    },
  };
}
