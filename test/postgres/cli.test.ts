// Goal: with --database-url every state command of the CLI works on the shared database, as a node does: `db
// migrate` applies the schema once, `keys create` issues a key `keys list` shows with its balances, `keys revoke`
// revokes it, `manifest keygen` rotates the ring the nodes sign with, and IBANQA_DATABASE_URL does the same as the flag.
// Method: child processes of the real CLI (src/cli-entry.js) against a schema of their own in the machine's
// PostgreSQL; expectations from the schema's tables read directly with pg, not through the code under test.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { latestVersion } from '../../src/postgres/migrate.js';
import { migrations } from '../../src/postgres/migrations.js';
import { createTestSchema, querySchema, type TestSchema } from '../helpers/postgres.js';

const entry = fileURLToPath(new URL('../../src/cli-entry.js', import.meta.url));
const exec = promisify(execFile);

let schema: TestSchema;
let dataDir: string;

function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  return exec(process.execPath, [entry, ...args], {
    env: { ...process.env, NODE_OPTIONS: '', IBANQA_DATA_DIR: dataDir, ...env },
  });
}

describe('ibanqa CLI on a shared database', () => {
  before(async () => {
    schema = await createTestSchema();
    dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-cli-pg-'));
  });
  after(async () => {
    await schema.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('db migrate applies the schema once', async () => {
    const first = await cli(['db', 'migrate', '--database-url', schema.url]);
    assert.match(
      first.stdout,
      new RegExp(
        `schema version ${latestVersion}, applied 1 \\(.*\\), 2 \\(credit leases.*\\), 3 \\(registry publications.*\\), 4 \\(statement reviews`,
      ),
    );
    const again = await cli(['db', 'migrate'], { IBANQA_DATABASE_URL: schema.url });
    assert.match(again.stdout, new RegExp(`schema version ${latestVersion}, already up to date`));
    assert.deepEqual(
      await querySchema(schema, 'SELECT version FROM schema_migrations ORDER BY version'),
      migrations.map(({ version }) => ({ version })),
    );
    // One list owns every table: the state's, the registry publications', the statement reviews'.
    const tables = await querySchema<{ table_name: string }>(
      schema,
      'SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()',
    );
    const names = new Set(tables.map((row) => row.table_name));
    for (const table of [
      'api_keys',
      'credit_leases',
      'registry_publications',
      'statement_reviews',
      'statement_uploads',
    ])
      assert.ok(names.has(table), table);
  });

  it('keys create, list and revoke work on the database, not the data directory', async () => {
    const created = JSON.parse(
      (
        await cli([
          'keys',
          'create',
          '--plan',
          'pro',
          '--label',
          'ci',
          '--json',
          '--database-url',
          schema.url,
        ])
      ).stdout,
    ) as { id: string; key: string; plan: string };
    assert.equal(created.plan, 'pro');
    const rows = await querySchema<{ id: string; plan: string; label: string; revoked_at: null }>(
      schema,
      'SELECT id, plan, label, revoked_at FROM api_keys',
    );
    assert.deepEqual(rows, [{ id: created.id, plan: 'pro', label: 'ci', revoked_at: null }]);
    const listed = JSON.parse(
      (await cli(['keys', 'list', '--json'], { IBANQA_DATABASE_URL: schema.url })).stdout,
    ) as { id: string; credits: { api_calls: { used: number } } }[];
    assert.deepEqual(
      listed.map((key) => [key.id, key.credits.api_calls.used]),
      [[created.id, 0]],
    );
    const local = JSON.parse((await cli(['keys', 'list', '--json'])).stdout) as unknown[];
    assert.deepEqual(local, [], 'the data directory holds no key');
    const revoked = await cli(['keys', 'revoke', created.id, '--database-url', schema.url]);
    assert.equal(revoked.stdout.trim(), `revoked ${created.id}`);
    const after = await querySchema<{ revoked: boolean }>(
      schema,
      'SELECT revoked_at IS NOT NULL AS revoked FROM api_keys',
    );
    assert.deepEqual(after, [{ revoked: true }]);
  });

  it('manifest keygen rotates the ring in the database', async () => {
    const first = await cli(['manifest', 'keygen', '--database-url', schema.url]);
    const second = await cli(['manifest', 'keygen', '--database-url', schema.url]);
    const [ring] = await querySchema<{
      ring: { keys: { key_id: string; private_key_pem?: string }[] };
    }>(schema, 'SELECT ring FROM manifest_key_ring');
    assert.ok(ring);
    const ids = ring.ring.keys.map((key) => key.key_id);
    assert.equal(ids.length, 2);
    assert.ok(first.stdout.includes(ids[0] as string) && second.stdout.includes(ids[1] as string));
    assert.deepEqual(
      ring.ring.keys.map((key) => key.private_key_pem !== undefined),
      [false, true],
      'only the active key keeps its private half',
    );
  });
});
