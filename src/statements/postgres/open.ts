import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';
import type { Logger } from 'pino';
import { limits } from '../../limits.js';
import { PgAnalysisQueue, type PgQueueOptions } from './analysis-queue-pg.js';
import { PgReviewStore } from './review-store-pg.js';
import { ensureStatementSchema } from './schema.js';
import { PgUploadStore } from './upload-store-pg.js';

/** The statement reviews' state on PostgreSQL, for a node with a database URL: records, uploads and the queue share one pool. */
export function openPostgresStatements(
  databaseUrl: string,
  key: Buffer,
  logger: Logger,
  queue: Partial<PgQueueOptions> = {},
) {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: limits.statementDatabaseConnections,
  });
  // An idle connection the server dropped is replaced on the next query; unheard, the event would end the process.
  pool.on('error', (error) =>
    logger.warn({ err: error }, 'statement reviews: idle database connection lost'),
  );
  const node = queue.node ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  return {
    store: new PgReviewStore(pool),
    files: new PgUploadStore(pool, key),
    queue: new PgAnalysisQueue(pool, { ...queue, node }),
    database: {
      ready: () => ensureStatementSchema(pool),
      close: () => pool.end(),
      name: 'the PostgreSQL database the nodes share (IBANQA_DATABASE_URL)',
    },
  };
}
