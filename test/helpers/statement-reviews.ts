// A StatementReviews workflow over the in-memory state ports, an in-memory review store and upload files in a
// temporary directory: the set-up the workflow's unit tests share.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { memoryPorts } from '../../src/accounts/memory-ports.js';
import { readStatementReport } from '../../src/ops/statements/report-check.js';
import type { StatementTask, StatementTaskResult } from '../../src/pool/task.js';
import { MemoryReviewStore } from '../../src/statements/review-store-memory.js';
import { StatementReviews } from '../../src/statements/reviews.js';
import { UploadFiles } from '../../src/statements/upload-files.js';

export type Analyze = (task: StatementTask, signal: AbortSignal) => Promise<StatementTaskResult>;

export interface ReviewsSetup {
  readonly analyze: Analyze;
  /** The workflow's clock, fixed. */
  readonly now: Date;
  /** When the Pro key the uploads belong to was created. */
  readonly keyCreatedAt?: Date;
  /** The byte the 32-byte upload key is filled with. */
  readonly keyByte?: number;
  readonly analysisMsMax?: number;
}

export function statementReviewsOverMemory(setup: ReviewsSetup) {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-reviews-'));
  const ports = memoryPorts();
  const created = ports.createKey('pro', setup.keyCreatedAt ?? setup.now);
  const store = new MemoryReviewStore();
  const key = Buffer.alloc(32, setup.keyByte ?? 7);
  const files = new UploadFiles(join(dir, 'uploads'), key);
  const reviews = new StatementReviews({
    store,
    files,
    key,
    keySource: 'configured',
    analyze: setup.analyze,
    readReport: readStatementReport,
    accounts: ports.authenticator,
    meter: ports.meter,
    now: () => setup.now,
    retentionSeconds: 3600,
    region: 'test',
    logger: pino({ level: 'silent' }),
    ...(setup.analysisMsMax === undefined ? {} : { analysisMsMax: setup.analysisMsMax }),
  });
  return {
    ports,
    keyId: created.id,
    reviews,
    store,
    files,
    key,
    dispose: async () => {
      await reviews.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
