import { join } from 'node:path';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { AccountStore } from '../accounts/account-store.js';
import { LmdbReviewStore } from './review-store-lmdb.js';
import type { PoolRunner } from '../pool/pool.js';
import type { StatePorts } from '../ports/index.js';
import { openPostgresStatements } from './postgres/open.js';
import { StatementReviews, type StatementReviewsDeps } from './reviews.js';
import { loadUploadKey } from './upload-cipher.js';
import { UploadFiles } from './upload-files.js';

/** Where statement data lives under the data directory: the key file and the encrypted uploads. */
export function statementPaths(dataDir: string): { keyFile: string; uploads: string } {
  return {
    keyFile: join(dataDir, 'statements', 'upload.key'),
    uploads: join(dataDir, 'statements', 'uploads'),
  };
}

/** The settings of Config (src/config.ts) the workflow reads. */
export interface StatementSettings {
  readonly dataDir: string;
  readonly statementKeyHex: string | null;
  readonly statementRetentionSeconds: number;
  readonly statementRegion: string;
}

export interface StatementWiring {
  readonly config: StatementSettings;
  /** The node's pool to the shared database, when it has one: records, uploads and the analysis queue live there. */
  readonly sharedDatabase: pg.Pool | null;
  /** The accounts environment the review records live in. */
  readonly store: AccountStore;
  /** Accounts and credits go through the state ports, as every other op's do. */
  readonly ports: Pick<StatePorts, 'authenticator' | 'meter'>;
  readonly runner: PoolRunner;
  readonly logger: Logger;
  /** The service's clock: review dates, expiry and the analysis's "today" read it. */
  readonly now: () => Date;
  /** The report's check at the worker boundary (the statements op's report-check.ts). */
  readonly readReport: StatementReviewsDeps['readReport'];
  readonly observeAnalysis?: StatementReviewsDeps['observeAnalysis'];
}

/**
 * The composition of the statement review workflow and the pool. Records, encrypted uploads and the analysis
 * queue are this node's (LMDB, files in the data directory) or, with a database URL, PostgreSQL's, shared by
 * every node. Every node must then have the same upload key (IBANQA_STATEMENT_KEY).
 */
export function openStatementReviews(wiring: StatementWiring): StatementReviews {
  const paths = statementPaths(wiring.config.dataDir);
  const { key, source } = loadUploadKey(wiring.config.statementKeyHex, paths.keyFile);
  const { sharedDatabase } = wiring;
  if (sharedDatabase !== null && source === 'data_directory')
    wiring.logger.warn(
      "statement reviews: the upload key is this node's key file; a node whose key differs from the one the first node recorded refuses to start: set the same IBANQA_STATEMENT_KEY on every node",
    );
  const state =
    sharedDatabase === null
      ? {
          store: LmdbReviewStore.open(wiring.store),
          files: new UploadFiles(paths.uploads, key),
        }
      : openPostgresStatements(sharedDatabase, key);
  return new StatementReviews({
    ...state,
    key,
    keySource: source,
    analyze: (task, signal) => wiring.runner.runStatementAnalysis(task, signal),
    readReport: wiring.readReport,
    accounts: wiring.ports.authenticator,
    meter: wiring.ports.meter,
    now: wiring.now,
    retentionSeconds: wiring.config.statementRetentionSeconds,
    region: wiring.config.statementRegion,
    logger: wiring.logger,
    ...(wiring.observeAnalysis === undefined ? {} : { observeAnalysis: wiring.observeAnalysis }),
  });
}
