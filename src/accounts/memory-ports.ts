/**
 * The in-memory twin of every state port: the same stores as lmdbPorts (meter, keyless limit,
 * idempotency records, watches) over MemoryTables, and a key registry in a Map. State lives as long as
 * the process; the contract suite in test/contract runs against both implementations.
 */
import type { StatePorts } from '../ports/index.js';
import type { CreatedKey } from './key-records.js';
import { IdempotencyStore, immediateTransaction } from './idempotency-store.js';
import { KeylessLimit, directWriter } from './keyless-limit.js';
import { MemoryKeyRegistry } from './memory-keys.js';
import { MeterLeaseLedger } from './meter-leases.js';
import { Meter } from './meter.js';
import type { PlanId } from '../domain/plans/plans.js';
import { portsOver } from './sync-ports.js';
import { MemoryTable } from './table.js';

export interface MemoryPorts extends StatePorts {
  /** Issues a key (the raw key is returned once, only its hash is kept). */
  createKey(plan: PlanId, now: Date, label?: string): CreatedKey;
  revokeKey(id: string, now: Date): boolean;
  /** The ledger itself (its lease operations, tests). */
  readonly ledger: Meter;
}

export function memoryPorts(): MemoryPorts {
  const keys = new MemoryKeyRegistry();
  const keylessTable = new MemoryTable<number>();
  const ledger = new Meter(new MemoryTable());
  const ports = portsOver({
    authenticate: (rawKey, now) => keys.authenticate(rawKey, now),
    accountById: (id) => keys.accountById(id),
    ledger,
    keyless: new KeylessLimit(keylessTable, directWriter(keylessTable)),
    // A result and its charge commit together trivially: both are in memory, written in one synchronous step.
    records: new IdempotencyStore(new MemoryTable(), {
      meter: ledger,
      leases: new MeterLeaseLedger(ledger),
      transaction: immediateTransaction,
    }),
    watches: new MemoryTable(),
  });
  return {
    ...ports,
    ledger,
    createKey: (plan, now, label) => keys.createKey(plan, now, label),
    revokeKey: (id, now) => keys.revokeKey(id, now),
  };
}
