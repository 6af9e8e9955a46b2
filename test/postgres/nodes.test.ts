// Goal: two nodes sharing one database behave as one service for what must not happen twice: both start at once
// and the schema is migrated and the demo keys created once; a key works on both; the same US routing request_id
// sent to both at once runs once and debits once, a changed body is 409 on both; a full profile sent to both at
// once runs once and debits once; the two nodes sign fixture manifests with the same key.
// Method: two real service processes (src/main.ts, the second with two REST front threads) with IBANQA_DATABASE_URL
// naming a schema of their own in the machine's PostgreSQL. Debits are read from the credit_usage table with plain SQL (not through the ledger code)
// and compared with the quote the service gave; the key's id is computed here from its SHA-256.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { migrations } from '../../src/postgres/migrations.js';
import { createTestSchema, querySchema, type TestSchema } from '../helpers/postgres.js';
import { seedEmbeddedRegistry } from '../helpers/registry-template.js';
import { call } from '../helpers/service.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';

let schema: TestSchema;
let seeded: string;
let nodes: ServiceProcess[] = [];
let starterKey: string;

/** Committed credits of a kind for a raw key, straight from the table (ids are key_ + 12 hex of the SHA-256). */
async function used(rawKey: string, kind: 'api_calls' | 'profiles'): Promise<number> {
  const id = `key_${createHash('sha256').update(rawKey).digest('hex').slice(0, 12)}`;
  const rows = await querySchema<{ used: string }>(
    schema,
    `SELECT used_${kind} AS used FROM credit_usage WHERE account_id = $1`,
    [id],
  );
  return rows.reduce((sum, row) => sum + Number(row.used), 0);
}

const requestId = () => `${Date.now()}-${randomBytes(16).toString('hex')}`;

/** The same body sent to every node at once, `perNode` times each, interleaved. */
function toAll(path: string, body: unknown, perNode = 4) {
  return Promise.all(
    Array.from({ length: perNode * nodes.length }, (_, i) =>
      call((nodes[i % nodes.length] as ServiceProcess).base, path, { key: starterKey, body }),
    ),
  );
}

describe('two nodes on one database', () => {
  before(async () => {
    schema = await createTestSchema();
    seeded = mkdtempSync(join(tmpdir(), 'ibanqa-nodes-registry-'));
    await seedEmbeddedRegistry(seeded);
    const env = { IBANQA_DATABASE_URL: schema.url, IBANQA_POOL_THRESHOLD_ROWS: '1' };
    // The second node runs two REST front threads: their state calls cross to its main thread's PostgreSQL ports.
    nodes = await Promise.all(
      [{}, { IBANQA_HTTP_THREADS: '2' }].map((threads) =>
        startServiceProcess({ ...env, ...threads }, seeded, { demoKeys: false }),
      ),
    );
    const printed = nodes.map((node) => /^\s+starter\s+(iq_\S+)/m.exec(node.child.stdout())?.[1]);
    assert.equal(printed.filter(Boolean).length, 1, 'exactly one node created the demo keys');
    starterKey = printed.find(Boolean) as string;
  });
  after(async () => {
    await Promise.all(nodes.map((node) => node.dispose()));
    rmSync(seeded, { recursive: true, force: true });
    await schema?.drop();
  });

  it('a node with another statement upload key refuses to start, saying which setting to fix', async () => {
    await assert.rejects(
      startServiceProcess(
        { IBANQA_DATABASE_URL: schema.url, IBANQA_STATEMENT_KEY: randomBytes(32).toString('hex') },
        seeded,
        { demoKeys: false },
      ),
      /IBANQA_STATEMENT_KEY/,
    );
  });

  it('migrated once; one set of demo keys; the key works on both nodes', async () => {
    assert.deepEqual(
      await querySchema(schema, 'SELECT version FROM schema_migrations ORDER BY version'),
      migrations.map(({ version }) => ({ version })),
    );
    assert.equal(
      (await querySchema(schema, 'SELECT id FROM api_keys')).length,
      7,
      'one key per plan',
    );
    for (const node of nodes) {
      const usage = await call(node.base, '/usage', { key: starterKey });
      assert.equal(usage.status, 200, usage.text);
      assert.equal(usage.body.plan, 'starter');
    }
  });

  it('one request_id sent to both nodes at once runs once and debits its quote once; a changed body is 409 on both', async () => {
    const target = { routing_numbers: ['011000015', '021000021', '011000016'] };
    const quote = await call((nodes[0] as ServiceProcess).base, '/us/routing/quote', {
      key: starterKey,
      body: target,
    });
    assert.equal(quote.status, 200, quote.text);
    const body = { ...target, max_credits: quote.body.max_credits, request_id: requestId() };
    const before = await used(starterKey, 'api_calls');
    const replies = await toAll('/us/routing/run', body);
    assert.deepEqual(
      replies.map((reply) => reply.status),
      replies.map(() => 200),
      replies.find((reply) => reply.status !== 200)?.text,
    );
    assert.equal(replies.filter((reply) => reply.body.replayed === false).length, 1, 'ran once');
    assert.equal((await used(starterKey, 'api_calls')) - before, quote.body.max_credits);
    const first = replies.find((reply) => reply.body.replayed === false)?.body;
    for (const reply of replies) assert.deepEqual(reply.body.check, first.check);
    const changed = await toAll(
      '/us/routing/run',
      { ...body, routing_numbers: ['011000015', '021000021', '011000028'] },
      1,
    );
    assert.deepEqual(
      changed.map((reply) => [reply.status, reply.body.error]),
      nodes.map(() => [409, 'conflict']),
    );
    assert.equal((await used(starterKey, 'api_calls')) - before, quote.body.max_credits);
  });

  it('a full profile sent to both nodes at once runs once and debits one profile', async () => {
    const body = {
      mode: 'synthetic',
      seed: `nodes-${randomBytes(4).toString('hex')}`,
      confirm_credit: true,
    };
    const before = await used(starterKey, 'profiles');
    const replies = await toAll('/us/routing/profile', body);
    assert.ok(
      replies.every((reply) => reply.status === 200),
      replies.find((reply) => reply.status !== 200)?.text,
    );
    assert.equal(replies.filter((reply) => reply.body.replayed === false).length, 1, 'ran once');
    for (const reply of replies) assert.deepEqual(reply.body.person, replies[0]?.body.person);
    assert.equal((await used(starterKey, 'profiles')) - before, 1);
  });

  it('both nodes publish the same manifest signing key', async () => {
    const specs = await Promise.all(
      nodes.map((node) => call(node.base, '/fixture-manifest/spec', {})),
    );
    const [ring] = await querySchema<{ ring: { keys: { key_id: string }[] } }>(
      schema,
      'SELECT ring FROM manifest_key_ring',
    );
    assert.equal(ring?.ring.keys.length, 1, 'one key created, however many nodes started');
    for (const spec of specs) {
      assert.equal(spec.status, 200, spec.text);
      assert.ok(spec.text.includes(ring.ring.keys[0]?.key_id as string), spec.text.slice(0, 200));
    }
  });
});
