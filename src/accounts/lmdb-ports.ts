/** The LMDB implementation of the state ports: the stores of this folder over the accounts environment. */
import type { StatePorts } from '../ports/index.js';
import type { Watch } from '../ports/watches.js';
import type { AccountStore } from './account-store.js';
import { IdempotencyStore } from './idempotency-store.js';
import { KeylessLimit } from './keyless-limit.js';
import { MeterLeaseLedger } from './meter-leases.js';
import { Meter } from './meter.js';
import { portsOver } from './sync-ports.js';

export interface LmdbPorts extends StatePorts {
  /** The ledger itself, for tests and the CLI's balances. */
  readonly ledger: Meter;
  /** The idempotency records store itself (sweeps, tests). */
  readonly records: IdempotencyStore;
  /** The ledger's lease operations for this node's front threads (their lease spends commit with saved results). */
  readonly leaseLedger: MeterLeaseLedger;
}

export function lmdbPorts(store: AccountStore): LmdbPorts {
  const ledger = Meter.open(store);
  const leaseLedger = new MeterLeaseLedger(ledger);
  const records = IdempotencyStore.open(store, { meter: ledger, leases: leaseLedger });
  const ports = portsOver({
    authenticate: (rawKey, now) => store.authenticate(rawKey, now),
    accountById: (id) => store.accountById(id),
    ledger,
    keyless: KeylessLimit.open(store),
    records,
    watches: store.subDatabase<Watch>('watches'),
  });
  return { ...ports, ledger, records, leaseLedger };
}
