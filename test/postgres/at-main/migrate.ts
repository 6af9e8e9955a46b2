// A copy of src/postgres/migrate.ts at commit 633f9fd (three schema owners; import paths changed only):
// upgrade.test.ts builds a database with these files as nodes of that release did.
/**
 * Applies the pending migrations once, however many nodes start at the same moment: every migration runs in one
 * transaction that first takes a transaction-level advisory lock, so a second node waits for the first to commit
 * and then finds nothing left to do. The lock is per schema (hashtext of current_schema()), so deployments in
 * other schemas of the same database do not wait for each other.
 */
import type pg from 'pg';
import { migrations, type Migration } from './migrations.js';
import { inTransaction } from './transaction.js';

/** Distinguishes this lock from other advisory locks of the schema (two-key form: this class, the schema). */
const MIGRATION_LOCK_CLASS = 0x1ba9;

/** The newest version this build knows: a database at a higher one was migrated by a newer release. */
export const latestVersion = Math.max(...migrations.map((migration) => migration.version));

export interface MigrationOutcome {
  readonly applied: readonly Migration[];
  /** The schema's version after the run. */
  readonly version: number;
}

export function migrate(pool: pg.Pool): Promise<MigrationOutcome> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [
      MIGRATION_LOCK_CLASS,
    ]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const have = new Set(done.rows.map((row) => row.version));
    const newest = Math.max(0, ...have);
    // A newer release migrated this database: an older node must not write tables it no longer knows the shape of.
    if (newest > latestVersion)
      throw new Error(
        `the database schema is at version ${newest}, newer than this release knows (${latestVersion}): run the newer release`,
      );
    const pending = migrations.filter((migration) => !have.has(migration.version));
    for (const migration of pending) {
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    }
    const version = Math.max(0, ...have, ...pending.map((migration) => migration.version));
    return { applied: pending, version };
  });
}
