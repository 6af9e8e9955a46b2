/**
 * What a node opens when IBANQA_DATABASE_URL is set: the pool, the schema brought up to date (once, however many
 * nodes start together), the state ports and the manifest key ring over it.
 */
import type pg from 'pg';
import type { KeyRingStorage } from '../signing/key-ring.js';
import { pgKeyRing } from './key-ring-store.js';
import { migrate, type MigrationOutcome } from './migrate.js';
import { openPool, redactedUrl } from './pool.js';
import { pgPorts, type PgPorts } from './ports.js';

export interface SharedState {
  readonly pool: pg.Pool;
  readonly ports: PgPorts;
  readonly keyRing: KeyRingStorage;
  readonly migration: MigrationOutcome;
  /** Writes everything still pending, then closes the pool. */
  close(): Promise<void>;
}

/** Opens the pool and migrates; a database that cannot be reached or migrated fails here, with its URL redacted. */
export async function openSharedState(databaseUrl: string): Promise<SharedState> {
  const pool = openPool(databaseUrl);
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
  const ports = pgPorts(pool);
  return {
    pool,
    ports,
    keyRing: pgKeyRing(pool),
    migration,
    async close() {
      await ports.flush();
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
