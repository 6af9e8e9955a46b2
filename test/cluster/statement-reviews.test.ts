/**
 * Statement reviews on several nodes: two real service processes with their own data directories share one
 * PostgreSQL database and one upload key. A statement uploaded on node A is analysed by whichever node claims it,
 * then polled and deleted on node B; afterwards neither node has the review, and the database holds neither the
 * record nor the encrypted upload. A node killed (SIGKILL) while it holds the claim on a review leaves it pending,
 * and once the lease is over the other node analyses it.
 *
 * Keys: the accounts are shared through the database too, so the key is made once with the CLI
 * (`keys create --database-url`), as an operator makes one, and works on both nodes.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createKeyThroughCli } from '../helpers/cluster.js';
import { seedEmbeddedRegistry } from '../helpers/registry-template.js';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';
import { call } from '../helpers/service.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { settle, upload } from '../statements/client.js';
import { statementPdf, statementPng } from '../statements/corpus.js';
import { germanSpec } from '../statements/samples.js';

interface ClaimRow {
  readonly status: string;
  readonly claimed_by: string | null;
}

async function query<Row extends object>(db: pg.Client, sql: string, values: unknown[] = []) {
  return (await db.query<Row>(sql, values)).rows;
}

/** The review's row once a node claimed it (polled every 5 ms: the kill must come before the analysis ends). */
async function claimed(db: pg.Client, reviewId: string): Promise<ClaimRow> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const [row] = await query<ClaimRow>(
      db,
      'SELECT status, claimed_by FROM statement_reviews WHERE review_id = $1',
      [reviewId],
    );
    if ((row?.claimed_by ?? null) !== null || Date.now() > deadline) return row as ClaimRow;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function countRows(db: pg.Client): Promise<{ reviews: number; uploads: number }> {
  const [counts] = await query<{ reviews: number; uploads: number }>(
    db,
    `SELECT (SELECT count(*)::int FROM statement_reviews) AS reviews,
            (SELECT count(*)::int FROM statement_uploads) AS uploads`,
  );
  return counts as { reviews: number; uploads: number };
}

describe('statement reviews through PostgreSQL', () => {
  let database: ScratchDatabase;
  let seed: string;
  let key: string;
  /** The test's own connection, to look at the shared tables. */
  let db: pg.Client;
  const nodes: ServiceProcess[] = [];
  /** Every node of one deployment has the same upload key: any node decrypts what another stored. */
  const uploadKey = randomBytes(32).toString('hex');

  before(async () => {
    database = await createScratchDatabase('statement_reviews');
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    seed = mkdtempSync(join(tmpdir(), 'ibanqa-statements-seed-'));
    await seedEmbeddedRegistry(seed);
    key = await createKeyThroughCli(database.url, 'pro');
    const env = { IBANQA_DATABASE_URL: database.url, IBANQA_STATEMENT_KEY: uploadKey };
    nodes.push(
      ...(await Promise.all([0, 1].map(() => startServiceProcess(env, seed, { demoKeys: false })))),
    );
  });

  after(async () => {
    await db?.end();
    for (const node of nodes) await node.dispose();
    await database?.drop();
    if (seed !== undefined) rmSync(seed, { recursive: true, force: true });
  });

  test('a statement uploaded on node A is analysed, then polled and deleted on node B', async () => {
    const [a, b] = nodes as [ServiceProcess, ServiceProcess];
    const accepted = await upload(a.base, await statementPdf(germanSpec), { key });
    assert.equal(accepted.status, 202, accepted.text);
    const reviewId = accepted.body.review_id as string;
    assert.match(accepted.body.retention.encryption.review_record_and_report, /PostgreSQL/);

    const done = await settle(b.base, key, reviewId);
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.status, 'completed');
    // The sample statement's own holder and period (test/statements/samples.ts), read back from the PDF.
    assert.equal(done.body.extracted_fields.account_holder, 'Erika Beispiel');
    assert.deepEqual(done.body.extracted_fields.statement_period, {
      start: '2025-01-01',
      end: '2025-01-31',
    });
    assert.deepEqual(
      (await call(a.base, `/statement-validator/review/${reviewId}`, { key })).body,
      done.body,
    );
    assert.deepEqual(await countRows(db), { reviews: 1, uploads: 1 });

    const path = `/statement-validator/review/${reviewId}`;
    const deleted = await call(b.base, path, { key, method: 'DELETE' });
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(deleted.body.deleted, true);
    assert.equal((await call(a.base, path, { key })).status, 404);
    assert.equal((await call(b.base, path, { key })).status, 404);
    assert.deepEqual(await countRows(db), { reviews: 0, uploads: 0 });
  });

  test('a node killed while it holds a claim leaves the review to the other node once the lease is over', async () => {
    const image = await statementPng(['Account statement', 'IBAN: DE89 3704 0044 0532 0130 00']);
    const accepted = await upload((nodes[0] as ServiceProcess).base, image, {
      key,
      filename: 'scan.png',
    });
    assert.equal(accepted.status, 202, accepted.text);
    const reviewId = accepted.body.review_id as string;
    const claim = await claimed(db, reviewId);
    // A claim names its node `host:pid:random` (src/statements/postgres/open.ts).
    const holderPid = Number(claim.claimed_by?.split(':')[1]);
    const holder = nodes.find((node) => node.child.pid === holderPid);
    const survivor = nodes.find((node) => node !== holder);
    assert.ok(holder && survivor, `claimed by ${claim.claimed_by}`);
    const exited = new Promise((resolve) => holder.child.process.once('exit', resolve));
    holder.child.process.kill('SIGKILL');
    await exited;
    const [orphaned] = await query<ClaimRow>(
      db,
      'SELECT status, claimed_by FROM statement_reviews WHERE review_id = $1',
      [reviewId],
    );
    assert.deepEqual(orphaned, { status: 'pending_analysis', claimed_by: claim.claimed_by });
    // The lease (limits.statementClaimLeaseMs, 90 s) runs out now rather than in 90 s; the unit test waits a real one.
    await query(db, 'UPDATE statement_reviews SET claimed_until = now() WHERE review_id = $1', [
      reviewId,
    ]);
    const done = await settle(survivor.base, key, reviewId);
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.status, 'completed');
    assert.equal(done.body.extracted_fields.iban, 'DE89370400440532013000');
  });
});
