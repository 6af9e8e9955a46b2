/**
 * What a node opens when IBANQA_DATABASE_URL is set: its one pool (pool.ts), the schema brought up to date (every
 * table, once, however many nodes start together), the state ports and the manifest key ring over it. The
 * statement reviews query through the same pool (main.ts hands it over); close() ends it once, last.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { LeasedMeter } from '../accounts/meter-leased.js';
import { PushedBalances } from '../accounts/pushed-balances.js';
import { limits } from '../limits.js';
import type { KeyRingStorage } from '../signing/key-ring.js';
import { pgKeyRing } from './key-ring-store.js';
import { migrate, type MigrationOutcome } from './migrate.js';
import { openPool, redactedUrl } from './pool.js';
import { PgLeaseLedger } from './meter-leases.js';
import { pgPorts, type PgPorts } from './ports.js';

export interface SharedState {
  /** The node's one pool: the statement reviews use it too, and must stop before close(). */
  readonly pool: pg.Pool;
  readonly ports: PgPorts;
  readonly keyRing: KeyRingStorage;
  readonly migration: MigrationOutcome;
  /** The node's credit meter: leases of the shared ledger (ports.meter is this one). */
  readonly leases: LeasedMeter;
  /** The shared ledger's lease operations (this node's front threads hold leases of it too). */
  readonly leaseLedger: PgLeaseLedger;
  /** Writes everything still pending, gives back the node's unspent leased credits, then closes the pool. */
  close(): Promise<void>;
}

/** Opens the pool and migrates; a database that cannot be reached or migrated fails here, with its URL redacted. */
export interface SharedStateOptions {
  /** How long a lease of this node outlives the node (limits.leases.ttlMs unless configured). */
  readonly leaseTtlMs?: number;
  /** Failures of background lease renewals (the next renewal tries again). */
  readonly onLeaseError?: (error: unknown) => void;
  /** An idle pool connection the server closed (restart, failover): the pool replaces it; the node logs it. */
  readonly onIdleError?: (error: Error) => void;
}

export async function openSharedState(
  databaseUrl: string,
  options: SharedStateOptions = {},
): Promise<SharedState> {
  const pool = openPool(databaseUrl, limits.postgres.poolConnectionsMax, options.onIdleError);
  let migration: MigrationOutcome;
  try {
    migration = await migrate(pool);
  } catch (error) {
    await pool.end();
    throw new Error(
      `database ${redactedUrl(databaseUrl)}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const shared = pgPorts(pool);
  // The node reserves from leases of the shared ledger: no round trip per reservation (src/accounts/meter-leased.ts).
  // Its X-RateLimit headers read the balances the spends' own transactions return: no read per request either.
  const balances = new PushedBalances(shared.ledger);
  const leaseLedger = new PgLeaseLedger(pool, randomUUID(), (notes) => balances.record(notes));
  const leases = new LeasedMeter(leaseLedger, shared.ledger, {
    ttlMs: options.leaseTtlMs ?? limits.leases.ttlMs,
    notes: balances,
    onCharged: (accountId, at) => balances.charged(accountId, at),
    ...(options.onLeaseError === undefined ? {} : { onError: options.onLeaseError }),
  });
  await leases.start();
  const ports: PgPorts = {
    ...shared,
    meter: leases,
    flush: async () => {
      await Promise.all([leases.flush(), shared.flush()]);
    },
  };
  return {
    pool,
    ports,
    keyRing: pgKeyRing(pool),
    migration,
    leases,
    leaseLedger,
    async close() {
      await leases.close();
      await shared.flush();
      await pool.end();
    },
  };
}

/** Runs `use` over the shared state and closes it after (the CLI's commands). */
export async function withSharedState<T>(
  databaseUrl: string,
  use: (state: SharedState) => Promise<T>,
): Promise<T> {
  const state = await openSharedState(databaseUrl);
  try {
    return await use(state);
  } finally {
    await state.close();
  }
}
