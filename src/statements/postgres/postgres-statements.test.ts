/**
 * The statement reviews' PostgreSQL state against the machine's server (one scratch database for this file): the
 * ReviewStore contract the LMDB store and the in-memory twin pass, the encrypted uploads, and the analysis queue's
 * claims (two nodes never take one review; an expired claim is taken again, and only its new holder records).
 */
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { pino } from 'pino';
import { reviewRecord, reviewStoreContract } from '../../../test/helpers/review-store-contract.js';
import {
  createScratchDatabase,
  type ScratchDatabase,
} from '../../../test/helpers/scratch-database.js';
import { memoryPorts } from '../../accounts/memory-ports.js';
import { periodOf } from '../../accounts/periods.js';
import { limits } from '../../limits.js';
import { readStatementReport } from '../../ops/statements/report-check.js';
import { StatementReviews } from '../reviews.js';
import { decryptUpload } from '../upload-cipher.js';
import { migrateDatabase } from '../../postgres/migrate.js';
import { openPool } from '../../postgres/pool.js';
import { openPostgresStatements } from './open.js';

const silent = pino({ level: 'silent' });
const key = randomBytes(32);

describe('statement reviews on PostgreSQL', () => {
  let database: ScratchDatabase;
  let admin: pg.Client;
  const pools: pg.Pool[] = [];
  /** A node's view of the shared tables: its own pool and its own claim name. */
  const node = async (name: string, leaseMs?: number) => {
    const pool = openPool(database.url);
    pools.push(pool);
    return openPostgresStatements(pool, key, {
      node: name,
      ...(leaseMs === undefined ? {} : { leaseMs }),
    });
  };

  before(async () => {
    database = await createScratchDatabase('statements_unit');
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await migrateDatabase(database.url);
  });

  after(async () => {
    await admin?.end();
    for (const pool of pools) await pool.end();
    await database?.drop();
  });

  test('a node whose upload key differs from the recorded one is refused; the same key is accepted', async () => {
    const pool = openPool(database.url);
    pools.push(pool);
    await admin.query('DELETE FROM statement_upload_key');
    const first = openPostgresStatements(pool, key).files;
    await first.open();
    const { rows } = await admin.query<{ fingerprint: string }>(
      'SELECT fingerprint FROM statement_upload_key',
    );
    // The fingerprint is an HMAC under the key (computed here by node:crypto), never the key itself.
    const expected = createHmac('sha256', key).update('ibanqa statement upload key').digest('hex');
    assert.deepEqual(rows, [{ fingerprint: expected }]);
    const other = openPostgresStatements(pool, randomBytes(32)).files;
    await assert.rejects(other.open(), /IBANQA_STATEMENT_KEY/);
    await openPostgresStatements(pool, Buffer.from(key)).files.open();
    assert.equal((await admin.query('SELECT 1 FROM statement_upload_key')).rowCount, 1);
  });

  describe('PgReviewStore', () => {
    reviewStoreContract(async () => {
      await admin.query('TRUNCATE statement_reviews, statement_uploads');
      return { store: (await node('contract')).store, close: async () => undefined };
    });
  });

  test('uploads are stored encrypted, read back sealed, and removed; a fresh one is no orphan', async () => {
    const { files } = await node('uploads');
    const plain = Buffer.from('%PDF-1.7\nsynthetic statement\n%%EOF\n');
    await files.write('u1', plain);
    const { rows } = await admin.query<{ sealed: Buffer }>(
      `SELECT sealed FROM statement_uploads WHERE review_id = 'u1'`,
    );
    assert.equal(rows[0]?.sealed.includes(Buffer.from('synthetic statement')), false);
    assert.deepEqual(decryptUpload(key, 'u1', await files.readSealed('u1')), plain);
    assert.deepEqual(await files.list(), []);
    await admin.query(`UPDATE statement_uploads SET stored_at = now() - interval '2 hours'`);
    assert.deepEqual(await files.list(), ['u1']);
    await files.remove('u1');
    await assert.rejects(files.readSealed('u1'));
  });

  test('two nodes claiming at once never take the same review, and take every one', async () => {
    await admin.query('TRUNCATE statement_reviews, statement_uploads');
    const [a, b] = [await node('node-a'), await node('node-b')];
    const ids = Array.from({ length: 30 }, (_, index) => `r${String(index).padStart(2, '0')}`);
    for (const id of ids) await a.store.put(reviewRecord(id));
    assert.equal(await b.queue.waiting(), ids.length);
    const drain = async (queue: typeof a.queue) => {
      const taken: string[] = [];
      for (let record = await queue.claim(); record; record = await queue.claim())
        taken.push(record.record.review_id);
      return taken;
    };
    const [byA, byB] = await Promise.all([drain(a.queue), drain(b.queue)]);
    assert.deepEqual([...byA, ...byB].sort(), ids);
    assert.ok(byA.length > 0 && byB.length > 0, `both nodes claimed: ${byA.length}/${byB.length}`);
    assert.equal(await a.queue.waiting(), 0);
    const { rows } = await admin.query<{ claimed_by: string; step: string }>(
      `SELECT claimed_by, record->>'step' AS step FROM statement_reviews WHERE review_id = $1`,
      [byB[0]],
    );
    assert.deepEqual(rows[0], { claimed_by: 'node-b', step: 'analyzing' });
  });

  test('a claim whose lease ran out is taken again, and only the new holder records the outcome', async () => {
    await admin.query('TRUNCATE statement_reviews, statement_uploads');
    const [dying, survivor] = [await node('dying', 300), await node('survivor', 300)];
    await dying.store.put(reviewRecord('lease'));
    const first = await dying.queue.claim();
    assert.deepEqual([first?.record.review_id, first?.attempt], ['lease', 1]);
    assert.equal(await survivor.queue.claim(), undefined);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const again = await survivor.queue.claim();
    assert.deepEqual([again?.record.review_id, again?.attempt], ['lease', 2]);
    assert.ok(first && again);
    const done = { status: 'completed', step: 'done' } as const;
    assert.equal(await dying.queue.finish({ ...first.record, ...done }), false);
    assert.equal(await survivor.queue.finish({ ...again.record, ...done }), true);
    assert.equal((await dying.store.get('lease'))?.status, 'completed');
    assert.equal(await survivor.queue.claim(), undefined);
  });

  test('a review claimed more often than statementClaimsMax fails as analysis_error, refunded, unanalysed', async () => {
    await admin.query('TRUNCATE statement_reviews, statement_uploads');
    const now = new Date('2026-01-01T12:00:00.000Z');
    const ports = memoryPorts();
    const created = ports.createKey('pro', new Date('2025-12-20T00:00:00.000Z'));
    const account = await ports.authenticator.accountById(created.id);
    assert.ok(account);
    const held = await ports.meter.reserve(account, { statements: 1 }, now);
    assert.ok(held.ok);
    await ports.meter.commit(held.reservation);
    const state = await node('last');
    const charge = {
      account_id: account.id,
      period_start: periodOf(account, now).start.toISOString(),
      debits: { statements: 1 },
    };
    await state.store.put(reviewRecord('poison', { key_id: created.id, charge }));
    // Every earlier claimant died before it recorded an outcome.
    await admin.query(`UPDATE statement_reviews SET claims = $1`, [limits.statementClaimsMax]);
    let analysed = false;
    const reviews = new StatementReviews({
      ...state,
      key,
      keySource: 'configured',
      analyze: async () => {
        analysed = true;
        return { ok: true, report: {} };
      },
      readReport: readStatementReport,
      accounts: ports.authenticator,
      meter: ports.meter,
      now: () => now,
      retentionSeconds: 3600,
      region: 'test',
      logger: silent,
    });
    let record = await state.store.get('poison');
    try {
      await reviews.start();
      for (let tries = 0; tries < 200 && record?.status === 'pending_analysis'; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        record = await state.store.get('poison');
      }
    } finally {
      await reviews.close(); // waits for the outcome's refund too
    }
    assert.equal(record?.status, 'analysis_failed');
    assert.equal(record?.failure?.reason, 'analysis_error');
    assert.equal(record?.failure?.refunded, true);
    assert.equal(analysed, false);
    assert.equal((await ports.meter.balance(account, now)).statements.used, 0);
  });
});
