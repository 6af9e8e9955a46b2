/**
 * The PostgreSQL implementation of the state ports, for several nodes sharing one database
 * (IBANQA_DATABASE_URL): keys, the credit ledger, the keyless allowance, idempotency records and watches. The
 * statement reviews' PostgreSQL state (src/statements/postgres/) queries through the same pool.
 */
import type pg from 'pg';
import type { StatePorts } from '../ports/index.js';
import { PgIdempotency } from './idempotency.js';
import { PgKeylessLimiter } from './keyless.js';
import { PgKeyStore } from './keys.js';
import { PgMeter } from './meter.js';
import { PgWatchStore } from './watches.js';

export interface PgPorts extends StatePorts {
  /** Key management (the CLI, demo keys) and account lookups by id. */
  readonly keys: PgKeyStore;
  /** The ledger itself (balances without a round trip, refunds of committed credits). */
  readonly ledger: PgMeter;
}

export function pgPorts(pool: pg.Pool): PgPorts {
  const keys = new PgKeyStore(pool);
  const ledger = new PgMeter(pool);
  const keyless = new PgKeylessLimiter(pool);
  const idempotency = new PgIdempotency(pool, ledger);
  return {
    authenticator: keys,
    meter: ledger,
    keyless,
    idempotency,
    watches: new PgWatchStore(pool),
    keys,
    ledger,
    async flush() {
      await Promise.all([ledger.flush(), idempotency.flush(), keyless.flush()]);
    },
  };
}
