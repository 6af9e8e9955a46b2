// Goal: one migration list owns every table, and a database made the way nodes made it before (three owners: the
// state's migrations, the registry publisher's and the statement reviews' own idempotent DDL) upgrades to it
// cleanly: a node of this release starts on it, applies only the migrations the old list lacked, loses no row and
// ends with the schema a fresh database gets; two migrators at once apply each migration once; a migrator waits
// while another holds the migration lock.
// Method: scratch databases on the machine's PostgreSQL. The old database is built with copies of the three schema
// owners as they were at commit 633f9fd (./at-main/), as a node of that release did at start: migrate, then the
// registry follower's and the statement reviews' schema calls. Rows are compared as JSON read with plain SQL
// before and after; the schemas are compared through information_schema and pg_catalog.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { latestVersion, migrate, migrateDatabase } from '../../src/postgres/migrate.js';
import { migrations } from '../../src/postgres/migrations.js';
import { PgKeyStore } from '../../src/postgres/keys.js';
import { openSharedState } from '../../src/postgres/node-state.js';
import { openPool } from '../../src/postgres/pool.js';
import { latestPublishedVersion } from '../../src/registry/publish/publications.js';
import { openPostgresStatements } from '../../src/statements/postgres/open.js';
import { reviewRecord } from '../helpers/review-store-contract.js';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';
import { migrate as migrateAtMain } from './at-main/migrate.js';
import { migrations as migrationsAtMain } from './at-main/migrations.js';
import { ensurePublicationSchema } from './at-main/registry-publication-schema.js';
import { ensureStatementSchema } from './at-main/statement-schema.js';

const T0 = new Date('2026-03-10T09:00:00.000Z');
/** migrate.ts's advisory lock class (its first key; the second is the schema's hashtext). */
const MIGRATION_LOCK_CLASS = 0x1ba9;
const tablesAtMain = [
  'api_keys',
  'credit_usage',
  'credit_leases',
  'keyless_usage',
  'idempotency',
  'watches',
  'manifest_key_ring',
  'registry_publications',
  'statement_reviews',
  'statement_uploads',
];

const databases: ScratchDatabase[] = [];
async function scratch(purpose: string): Promise<ScratchDatabase> {
  const database = await createScratchDatabase(purpose);
  databases.push(database);
  return database;
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** What a node at 633f9fd did to the database at start: its migrations, then the two other owners' DDL. */
async function buildAtMain(url: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    await migrateAtMain(pool);
    await withClient(url, (client) => ensurePublicationSchema(client));
    await ensureStatementSchema(pool);
  } finally {
    await pool.end();
  }
}

/** Rows of state, publications and reviews such a node wrote; returns the raw key it issued. */
async function writeRows(url: string): Promise<string> {
  const pool = openPool(url, 2);
  try {
    const created = await new PgKeyStore(pool).createKey('starter', T0, 'before the upgrade');
    await pool.query(
      `INSERT INTO credit_usage (account_id, period_start, used_api_calls) VALUES ($1, $2, 7)`,
      [created.id, T0.toISOString()],
    );
    await pool.query(
      `INSERT INTO registry_publications (version, base_version, base_fingerprint, fingerprint, source_id,
         snapshot_date, row_count, payload, payload_sha256) VALUES (5, 4, 'fp4', 'fp5', 'oenb-sepa', '2025-09-22', 3, $1, 'sha')`,
      [Buffer.from('payload')],
    );
    await pool.query(
      `INSERT INTO statement_reviews (review_id, status, created_at, expires_at, record) VALUES ($1, $2, $3, $4, $5)`,
      [
        'review-old',
        'pending_analysis',
        '2026-01-01T00:00:00.000Z',
        '2026-01-02T00:00:00.000Z',
        JSON.stringify(reviewRecord('review-old')),
      ],
    );
    await pool.query(
      `INSERT INTO statement_uploads (review_id, sealed) VALUES ('review-old', $1)`,
      [randomBytes(48)],
    );
    return created.key;
  } finally {
    await pool.end();
  }
}

/** Every row of every table, as JSON text in primary-key order (schema_migrations included). */
async function rowsOf(url: string): Promise<Record<string, string>> {
  return withClient(url, async (client) => {
    const rows: Record<string, string> = {};
    for (const table of [...tablesAtMain, 'schema_migrations']) {
      const result = await client.query<{ rows: string }>(
        `SELECT coalesce(json_agg(t ORDER BY t::text)::text, '[]') AS rows FROM ${table} t`,
      );
      rows[table] = result.rows[0]?.rows ?? '';
    }
    return rows;
  });
}

/** The schema as the catalogue describes it: columns, constraints, indexes and functions. */
async function schemaOf(url: string): Promise<unknown> {
  return withClient(url, async (client) => {
    const columns = await client.query(
      `SELECT table_name, column_name, data_type, is_nullable, column_default, collation_name
       FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name`,
    );
    const constraints = await client.query(
      `SELECT conrelid::regclass::text AS table_name, pg_get_constraintdef(oid) AS definition
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`,
    );
    const indexes = await client.query(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`,
    );
    const functions = await client.query(
      `SELECT proname, md5(prosrc) AS source FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY proname`,
    );
    return {
      columns: columns.rows,
      constraints: constraints.rows,
      indexes: indexes.rows,
      functions: functions.rows,
    };
  });
}

async function versionsOf(url: string): Promise<number[]> {
  return withClient(url, async (client) =>
    (
      await client.query<{ version: number }>(
        'SELECT version FROM schema_migrations ORDER BY version',
      )
    ).rows.map((row) => row.version),
  );
}

const versionsAtMain = migrationsAtMain.map((migration) => migration.version);
/** What the old list lacked: the registry publications' and statement reviews' tables, and any added since. */
const newVersions = migrations
  .map((migration) => migration.version)
  .filter((version) => !versionsAtMain.includes(version));

describe('one migration list for every table', () => {
  after(async () => {
    for (const database of databases) await database.drop();
  });

  it('a database three owners made upgrades: no row lost, no migration applied again, the fresh schema', async () => {
    const old = await scratch('upgrade_old');
    await buildAtMain(old.url);
    const rawKey = await writeRows(old.url);
    const before = await rowsOf(old.url);
    assert.deepEqual(await versionsOf(old.url), [1, 2], 'the old list had two migrations');

    const state = await openSharedState(old.url);
    try {
      assert.deepEqual(
        state.migration.applied.map((migration) => migration.version),
        newVersions,
      );
      assert.ok(
        newVersions.includes(3) && newVersions.includes(4),
        'publications and reviews joined the list',
      );
      // The new code reads what the old one wrote.
      assert.ok(
        await state.ports.keys.authenticate(rawKey, T0),
        'the key issued before still works',
      );
      const reviews = openPostgresStatements(state.pool, randomBytes(32), { node: 'upgraded' });
      assert.deepEqual(await reviews.store.get('review-old'), reviewRecord('review-old'));
      assert.equal(await withClient(old.url, latestPublishedVersion), 5);
    } finally {
      await state.close();
    }

    const upgraded = await rowsOf(old.url);
    for (const table of tablesAtMain) assert.equal(upgraded[table], before[table], table);
    // Migrations 1 and 2 keep the rows (and applied_at) the old release wrote: they did not run again.
    const oldMigrationRows = (rows: string) =>
      (JSON.parse(rows) as { version: number }[]).filter((row) =>
        versionsAtMain.includes(row.version),
      );
    assert.deepEqual(
      oldMigrationRows(upgraded.schema_migrations ?? '[]'),
      oldMigrationRows(before.schema_migrations ?? '[]'),
    );
    assert.deepEqual(
      await versionsOf(old.url),
      migrations.map((migration) => migration.version),
    );

    const fresh = await scratch('upgrade_fresh');
    await migrateDatabase(fresh.url);
    assert.deepEqual(await schemaOf(old.url), await schemaOf(fresh.url));
    assert.equal(
      (await migrateDatabase(old.url)).applied.length,
      0,
      'an upgraded database is current',
    );
  });

  it('two nodes starting at once on a database three owners made: each new migration applied once', async () => {
    const old = await scratch('upgrade_race');
    await buildAtMain(old.url);
    const states = await Promise.all([openSharedState(old.url), openSharedState(old.url)]);
    try {
      assert.deepEqual(states.map((state) => state.migration.applied.length).sort(), [
        0,
        newVersions.length,
      ]);
    } finally {
      await Promise.all(states.map((state) => state.close()));
    }
    assert.deepEqual(
      await versionsOf(old.url),
      migrations.map((migration) => migration.version),
    );
  });

  it('two migrators at once on a fresh database: one applies every migration, the other finds them done', async () => {
    const database = await scratch('migrate_race');
    const pools = [openPool(database.url, 1), openPool(database.url, 1)];
    try {
      const outcomes = await Promise.all(pools.map((pool) => migrate(pool)));
      assert.deepEqual(outcomes.map((outcome) => outcome.applied.length).sort(), [
        0,
        migrations.length,
      ]);
      assert.deepEqual(
        outcomes.map((outcome) => outcome.version),
        [latestVersion, latestVersion],
      );
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
    assert.deepEqual(
      await versionsOf(database.url),
      migrations.map((migration) => migration.version),
    );
  });

  it('a migrator waits while another holds the migration lock, then finds the schema to apply', async () => {
    const database = await scratch('migrate_lock');
    await withClient(database.url, async (holder) => {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [
        MIGRATION_LOCK_CLASS,
      ]);
      const pool = openPool(database.url, 1);
      try {
        const migrating = migrate(pool);
        let settled = false;
        void migrating.then(
          () => (settled = true),
          () => (settled = true),
        );
        // Its backend queues for the advisory lock the holder has.
        let waiting = 0;
        for (let tries = 0; tries < 400 && waiting === 0; tries++) {
          const { rows } = await holder.query<{ count: string }>(
            `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = $1`,
            [MIGRATION_LOCK_CLASS],
          );
          waiting = Number(rows[0]?.count ?? 0);
          if (waiting === 0) await sleep(25);
        }
        assert.equal(waiting, 1, 'the migrator waits for the lock');
        assert.equal(settled, false);
        const { rows } = await holder.query<{ table: string | null }>(
          `SELECT to_regclass('schema_migrations')::text AS table`,
        );
        assert.equal(rows[0]?.table, null, 'nothing created while the lock is held');
        await holder.query('COMMIT');
        assert.equal((await migrating).applied.length, migrations.length);
      } finally {
        await pool.end();
      }
    });
  });
});
