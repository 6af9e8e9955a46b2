import { join } from 'node:path';
import type { Logger } from 'pino';
import type { AccountStore } from '../accounts/account-store.js';
import { LmdbReviewStore } from '../accounts/review-store-lmdb.js';
import type { Config } from '../config.js';
import type { PoolRunner } from '../pool/pool.js';
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

export interface StatementWiring {
  readonly config: Config;
  /** Where the review records live (its LMDB environment), and by default whose accounts they charge. */
  readonly accounts: AccountStore;
  /** The accounts reviews look up, when the keys live elsewhere (the shared database). */
  readonly keys?: StatementReviewsDeps['accounts'];
  readonly meter: StatementReviewsDeps['meter'];
  readonly runner: PoolRunner;
  readonly logger: Logger;
  readonly now?: () => Date;
  readonly observeAnalysis?: StatementReviewsDeps['observeAnalysis'];
}

/** The composition of the statement review workflow: LMDB records, encrypted files, the pool. */
export function openStatementReviews(wiring: StatementWiring): StatementReviews {
  const paths = statementPaths(wiring.config.dataDir);
  const { key, source } = loadUploadKey(wiring.config.statementKeyHex, paths.keyFile);
  return new StatementReviews({
    store: LmdbReviewStore.open(wiring.accounts),
    files: new UploadFiles(paths.uploads, key),
    key,
    keySource: source,
    analyze: (task, signal) => wiring.runner.runStatementAnalysis(task, signal),
    accounts: wiring.keys ?? wiring.accounts,
    meter: wiring.meter,
    now: wiring.now ?? (() => new Date()),
    retentionSeconds: wiring.config.statementRetentionSeconds,
    region: wiring.config.statementRegion,
    logger: wiring.logger,
    ...(wiring.observeAnalysis === undefined ? {} : { observeAnalysis: wiring.observeAnalysis }),
  });
}
