// Goal: where the PostgreSQL ports differ from LMDB (several processes write one database), they stay exact:
// reservations from two nodes on one key never overspend; one idempotency key claimed from two nodes at once runs
// once, every claim gets its result, and another fingerprint is a conflict on the other node; a lead left by a dead
// node is taken over; the commits of one turn are one statement and durable before they resolve; three nodes
// migrating at once apply each migration once; two nodes loading the signing keys at once create one key.
// Method: two or three pg pools (each a "node": its own connections, its own in-process state) over one schema of
// the machine's PostgreSQL; allowances are the spec's published figures (Free: 50 API calls for life).
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { AppError } from '../../src/errors.js';
import { limits } from '../../src/limits.js';
import { migrate } from '../../src/postgres/migrate.js';
import { migrations } from '../../src/postgres/migrations.js';
import { openPool } from '../../src/postgres/pool.js';
import { pgPorts, type PgPorts } from '../../src/postgres/ports.js';
import { pgKeyRing } from '../../src/postgres/key-ring-store.js';
import { loadManifestKeysFrom } from '../../src/signing/key-ring.js';
import type { Claim } from '../../src/ports/index.js';
import { createTestSchema, querySchema, type TestSchema } from '../helpers/postgres.js';

const T0 = new Date('2026-03-10T09:00:00.000Z');
const FREE_API_CALLS = 50;

let schema: TestSchema;

let pools: pg.Pool[] = [];
let nodes: PgPorts[] = [];

describe('PostgreSQL state from several nodes', () => {
  before(async () => {
    schema = await createTestSchema();
    pools = [0, 1, 2].map(() => openPool(schema.url));
    const outcomes = await Promise.all(pools.map((pool) => migrate(pool)));
    assert.deepEqual(
      outcomes.map((outcome) => outcome.applied.length).sort(),
      [0, 0, migrations.length],
      'one node applied every migration, the others found them done',
    );
    nodes = pools.map((pool) => pgPorts(pool));
  });
  after(async () => {
    await Promise.all(nodes.map((node) => node.flush()));
    await Promise.all(pools.map((pool) => pool.end()));
    await schema.drop();
  });

  it('three nodes reserving 1 credit 40 times each on one Free key serve exactly 50', async () => {
    const created = await (nodes[0] as PgPorts).keys.createKey('free', T0);
    const served = await Promise.all(
      nodes.flatMap((node) =>
        Array.from({ length: 40 }, async () => {
          const account = await node.authenticator.authenticate(created.key, T0);
          assert.ok(account);
          const outcome = await node.meter.reserve(account, { api_calls: 1 }, T0);
          if (!outcome.ok) return 0;
          await sleep(1); // others reserve while this one "runs"
          await node.meter.commit(outcome.reservation);
          return 1;
        }),
      ),
    );
    assert.equal(
      served.reduce((a: number, b) => a + b, 0),
      FREE_API_CALLS,
    );
    const account = await (nodes[2] as PgPorts).authenticator.authenticate(created.key, T0);
    assert.ok(account);
    assert.deepEqual((await (nodes[2] as PgPorts).meter.balance(account, T0)).api_calls, {
      limit: FREE_API_CALLS,
      used: FREE_API_CALLS,
      reserved: 0,
      remaining: 0,
      resets_at: null,
    });
  });

  it('one idempotency key claimed on three nodes at once runs once; all get its result', async () => {
    const request = {
      key: 'run|r-nodes',
      fingerprint: 'fp',
      expiresAt: new Date(T0.getTime() + 3_600_000),
      label: 'request_id r-nodes',
    };
    let runs = 0;
    const results = await Promise.all(
      nodes.flatMap((node) =>
        Array.from({ length: 8 }, async () => {
          const claim: Claim = await node.idempotency.claim('key_a', request, T0);
          if (claim.kind === 'replay') return claim.result;
          runs++;
          await sleep(30); // long enough for the other nodes to find the row still running
          const result = { run: runs };
          await claim.complete(result, T0);
          return result;
        }),
      ),
    );
    assert.equal(runs, 1);
    for (const result of results) assert.deepEqual(result, { run: 1 });
  });

  it('a key running on one node is a conflict on another with a different fingerprint; after an abandon another node leads', async () => {
    const request = (fingerprint: string) => ({
      key: 'run|r-other',
      fingerprint,
      expiresAt: new Date(T0.getTime() + 3_600_000),
      label: 'request_id r-other',
    });
    const [a, b] = nodes as [PgPorts, PgPorts];
    const leader = await a.idempotency.claim('key_a', request('one'), T0);
    assert.equal(leader.kind, 'leader');
    await assert.rejects(
      b.idempotency.claim('key_a', request('two'), T0),
      (error: unknown) => error instanceof AppError && error.code === 'conflict',
    );
    const waiting = b.idempotency.claim('key_a', request('one'), T0);
    if (leader.kind === 'leader') leader.abandon(new AppError('internal', 'boom'));
    assert.equal((await waiting).kind, 'leader', 'the waiting node leads once the row is free');
  });

  it('a lead whose node died (no result after idempotencyLeaderMsMax) is taken over by another node', async () => {
    const request = {
      key: 'run|r-dead',
      fingerprint: 'fp',
      expiresAt: new Date(T0.getTime() + 24 * 3_600_000),
      label: 'request_id r-dead',
    };
    const [a, b, c] = nodes as [PgPorts, PgPorts, PgPorts];
    assert.equal((await a.idempotency.claim('key_a', request, T0)).kind, 'leader');
    // Node a "dies" here: its lead is never completed nor abandoned.
    const later = new Date(T0.getTime() + limits.postgres.idempotencyLeaderMsMax);
    const claim = await b.idempotency.claim('key_a', request, later);
    assert.equal(claim.kind, 'leader');
    if (claim.kind === 'leader') await claim.complete({ by: 'b' }, later);
    const replay = await c.idempotency.claim('key_a', request, later);
    assert.ok(replay.kind === 'replay');
    assert.deepEqual(await replay.result, { by: 'b' });
  });

  it('32 commits of one turn are settled by one statement, and each resolves only once another connection sees it', async () => {
    const node = nodes[1] as PgPorts;
    const created = await node.keys.createKey('unlimited', T0);
    const account = await node.authenticator.authenticate(created.key, T0);
    assert.ok(account);
    const held = await Promise.all(
      Array.from({ length: 32 }, () => node.meter.reserve(account, { api_calls: 2 }, T0)),
    );
    const pool = pools[1] as pg.Pool;
    const statements: string[] = [];
    const query = pool.query.bind(pool);
    pool.query = ((...args: Parameters<typeof query>) => {
      statements.push(String(args[0]));
      return query(...args);
    }) as typeof pool.query;
    try {
      await Promise.all(
        held.map(async (outcome) => {
          assert.ok(outcome.ok);
          await node.meter.commit(outcome.reservation, { api_calls: 1 });
          const [row] = await querySchema<{ used: string; reserved: string }>(
            schema,
            'SELECT used_api_calls AS used, reserved_api_calls AS reserved FROM credit_usage WHERE account_id = $1',
            [created.id],
          );
          assert.deepEqual(row, { used: '32', reserved: '0' }, 'the whole batch is committed');
        }),
      );
    } finally {
      pool.query = query;
    }
    assert.equal(
      statements.filter((text) => /^UPDATE credit_usage|\)\nUPDATE credit_usage/.test(text)).length,
      1,
    );
  });

  it('two nodes loading the signing keys at once create one key and sign with it', async () => {
    const settings = { dataDir: '/nonexistent', keyFile: null, enabled: true };
    const [first, second] = await Promise.all(
      pools.slice(0, 2).map((pool) => loadManifestKeysFrom(pgKeyRing(pool), settings)),
    );
    assert.ok(first?.signingKeyPem);
    assert.equal(first.signingKeyPem, second?.signingKeyPem);
    assert.deepEqual(first.published, second?.published);
    assert.equal(first.published.length, 1);
  });

  it('a node refuses a schema a newer release migrated', async () => {
    await querySchema(schema, 'INSERT INTO schema_migrations (version, name) VALUES (999, $1)', [
      'from a newer release',
    ]);
    try {
      await assert.rejects(migrate(pools[0] as pg.Pool), /version 999, newer than this release/);
    } finally {
      await querySchema(schema, 'DELETE FROM schema_migrations WHERE version = 999');
    }
  });
});
