/** The LMDB implementation of the state ports: the stores of this folder over the accounts environment. */
import type { StatePorts } from '../ports/index.js';
import type { Watch } from '../ports/watches.js';
import type { AccountStore } from './account-store.js';
import { IdempotencyStore } from './idempotency-store.js';
import { KeylessLimit } from './keyless-limit.js';
import { Meter } from './meter.js';
import { portsOver } from './sync-ports.js';

export interface LmdbPorts extends StatePorts {
  /** The ledger itself, for tests and the CLI's balances. */
  readonly ledger: Meter;
  /** The idempotency records store itself (sweeps, tests). */
  readonly records: IdempotencyStore;
}

export function lmdbPorts(store: AccountStore): LmdbPorts {
  const ledger = Meter.open(store);
  const records = IdempotencyStore.open(store);
  const ports = portsOver({
    authenticate: (rawKey, now) => store.authenticate(rawKey, now),
    accountById: (id) => store.accountById(id),
    ledger,
    keyless: KeylessLimit.open(store),
    records,
    watches: store.subDatabase<Watch>('watches'),
  });
  return { ...ports, ledger, records };
}
