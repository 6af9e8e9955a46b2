import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type pg from 'pg';
import { PgAnalysisQueue, type PgQueueOptions } from './analysis-queue-pg.js';
import { PgReviewStore } from './review-store-pg.js';
import { PgUploadStore } from './upload-store-pg.js';

/**
 * The statement reviews' state on PostgreSQL, for a node with a database URL: records, uploads and the queue query
 * through the node's one pool (src/postgres/pool.ts). Their tables are migration 4 of src/postgres/migrations.ts,
 * applied before the node opens this; the pool's owner closes it after the reviews have stopped.
 */
export function openPostgresStatements(
  pool: pg.Pool,
  key: Buffer,
  queue: Partial<PgQueueOptions> = {},
) {
  const node = queue.node ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  return {
    store: new PgReviewStore(pool),
    files: new PgUploadStore(pool, key),
    queue: new PgAnalysisQueue(pool, { ...queue, node }),
    database: { name: 'the PostgreSQL database the nodes share (IBANQA_DATABASE_URL)' },
  };
}
