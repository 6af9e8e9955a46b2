import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { periodOf } from '../accounts/periods.js';
import type { StatementReviewDesk, StatementUpload } from '../contract/capabilities.js';
import { kindOfMediaType, mediaTypeOf } from '../domain/statements/file-type.js';
import { AppError } from '../errors.js';
import { limits } from '../limits.js';
import type { Authenticator, CreditMeter } from '../ports/index.js';
import type { StatementTask, StatementTaskResult } from '../pool/task.js';
import { failureReasons, isFailureReason, type FailureReason } from './failure.js';
import type { ReviewCharge, ReviewRecord, ReviewReport, ReviewStore } from './review-store.js';
import type { UploadStore } from './upload-store.js';
import { LocalAnalysisQueue, type AnalysisQueue, type Claim } from './analysis-queue.js';

/** The credits a statement upload takes: one of the plan's statement quota (src/accounts/plans.ts). */
export const statementDebits = { statements: 1 } as const;

export interface StatementReviewsDeps {
  readonly store: ReviewStore;
  readonly files: UploadStore;
  /** Which review to analyse next; default: this node's own queue over `store`. */
  readonly queue?: AnalysisQueue;
  /** The shared database behind store, files and queue, when there is one (migrated and closed by its owner). */
  readonly database?: {
    /** Where records and reports are kept, as `retention.encryption` names it. */
    readonly name: string;
  };
  readonly key: Buffer;
  readonly keySource: 'configured' | 'data_directory';
  readonly analyze: (task: StatementTask, signal: AbortSignal) => Promise<StatementTaskResult>;
  /** Checks the report a worker sent back against the report's schema; throws when it does not match. */
  readonly readReport: (raw: unknown) => ReviewReport;
  /** The key's account (its plan and period), looked up once per upload. */
  readonly accounts: Pick<Authenticator, 'accountById'>;
  /** The quota shown on acceptance, and the refund of a review that failed for the service's reason. */
  readonly meter: Pick<CreditMeter, 'balance' | 'refundCommitted'>;
  readonly now: () => Date;
  readonly retentionSeconds: number;
  readonly region: string;
  readonly logger: Logger;
  /** Wall-time bound of one analysis; default limits.statementAnalysisMsMax (tests shorten it). */
  readonly analysisMsMax?: number;
  /** Told of every analysis that ends: `completed` or the failure reason, and its seconds (the service's /metrics). */
  readonly observeAnalysis?: (outcome: AnalysisOutcomeName, seconds: number) => void;
}

/** How an analysis ended, as /metrics and the log name it: a report, or the failure reason. */
export type AnalysisOutcomeName = 'completed' | FailureReason;

/** An upload as the statement op hands it over (the contract's StatementUpload). */
export type AcceptRequest = StatementUpload;

const stepMessages = {
  queued:
    'The statement is queued for analysis; poll GET /api/v1/statement-validator/review/{review_id}.',
  analyzing: 'The statement is being analysed; poll again shortly.',
  done: 'The analysis is complete.',
} as const;

type AnalysisOutcome = { report: ReviewReport } | { reason: FailureReason; detail: string };

/**
 * The statement review workflow: accept (store encrypted, record, queue), analyse in the worker pool one
 * at a time, answer polls, delete on request or at expiry. Upload bytes and extracted text never reach the
 * logger: log lines carry review ids, reasons and timings only.
 */
export class StatementReviews implements StatementReviewDesk {
  private readonly queue: AnalysisQueue;
  private readonly running = new Map<string, AbortController>();
  /** Reviews removed while their analysis ran: the result is dropped, never written back. */
  private readonly removed = new Set<string>();
  private sweeper: NodeJS.Timeout | undefined;
  private poller: NodeJS.Timeout | undefined;
  /** The claim under way, if any: one at a time, and close waits for it. */
  private claiming: Promise<void> | undefined;
  private closed = false;
  private idle: Promise<void> = Promise.resolve();
  private settleIdle: () => void = () => undefined;

  constructor(private readonly deps: StatementReviewsDeps) {
    this.queue = deps.queue ?? new LocalAnalysisQueue(deps.store);
  }

  /** Removes orphan files, resumes reviews a restart interrupted, sweeps, and starts the periodic sweeper. */
  async start(): Promise<void> {
    await this.deps.files.open?.();
    const known = new Set(await this.deps.store.ids());
    for (const id of await this.deps.files.list())
      if (!known.has(id)) await this.deps.files.remove(id);
    const resumed = await this.queue.resume();
    if (resumed > 0)
      this.deps.logger.info(
        { reviews: resumed },
        'statement reviews: resuming analyses interrupted by a restart',
      );
    await this.sweep();
    const interval = Math.min(60_000, Math.max(250, (this.deps.retentionSeconds * 1000) / 4));
    this.sweeper = setInterval(
      () =>
        void this.sweep().catch((error: unknown) =>
          this.deps.logger.error({ err: error }, 'statement sweep failed'),
        ),
      interval,
    );
    this.sweeper.unref();
    if (this.queue.pollMs !== null) {
      this.poller = setInterval(() => this.pump(), this.queue.pollMs);
      this.poller.unref();
    }
    this.pump();
  }

  async accept(request: AcceptRequest): Promise<Record<string, unknown>> {
    if ((await this.queue.waiting()) >= limits.statementQueueMax)
      throw new AppError(
        'overloaded',
        'Too many statements are waiting for analysis; retry shortly',
      );
    const account = await this.deps.accounts.accountById(request.keyId);
    if (account === null) throw new AppError('unauthenticated', 'Invalid API key');
    const now = this.deps.now();
    const reviewId = randomBytes(16).toString('hex'); // 128 random bits: unguessable, and the only handle on a review
    const charge: ReviewCharge = {
      account_id: account.id,
      period_start: periodOf(account, now).start.toISOString(),
      debits: statementDebits,
    };
    const record: ReviewRecord = {
      review_id: reviewId,
      key_id: request.keyId,
      status: 'pending_analysis',
      step: 'queued',
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + this.deps.retentionSeconds * 1000).toISOString(),
      media_type: mediaTypeOf[request.kind],
      size_bytes: request.bytes.byteLength,
      expected_bank: request.expectedBank,
      expected_bank_slug: request.expectedBankSlug,
      caller_paid: request.paid,
      charge,
      report: null,
      failure: null,
      completed_at: null,
    };
    try {
      await this.deps.files.write(reviewId, request.bytes);
      await this.deps.store.put(record);
    } catch (thrown) {
      await this.deps.files.remove(reviewId);
      throw thrown;
    }
    this.queue.added(reviewId);
    // After this call returns the request commits its credit; the analysis starts on a later turn of the loop.
    setImmediate(() => this.pump());
    const balance = (await this.deps.meter.balance(account, now)).statements;
    return {
      ...this.viewOf(record),
      quota: { limit: balance.limit, left: balance.remaining, unlimited: balance.limit === null },
    };
  }

  /** The review as its owner sees it; another key's review is indistinguishable from a missing one. */
  async view(keyId: string, reviewId: string): Promise<Record<string, unknown>> {
    return this.viewOf(await this.owned(keyId, reviewId));
  }

  async remove(keyId: string, reviewId: string): Promise<Record<string, unknown>> {
    const record = await this.owned(keyId, reviewId);
    await this.erase(record.review_id);
    return {
      success: true,
      review_id: record.review_id,
      deleted: true,
      deleted_artifacts: ['encrypted_upload', 'review_record', 'report'],
    };
  }

  /** Deletes every review past its expiry, in bounded batches. Returns how many went. */
  async sweep(): Promise<number> {
    let removed = 0;
    for (;;) {
      const batch = await this.deps.store.expired(this.deps.now(), limits.statementSweepBatch);
      for (const record of batch) await this.erase(record.review_id);
      removed += batch.length;
      if (batch.length < limits.statementSweepBatch) return removed;
    }
  }

  /** Stops the sweeper and waits for the running analysis; queued reviews stay pending and resume on the next start. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    if (this.poller !== undefined) clearInterval(this.poller);
    await this.claiming;
    await this.idle;
  }

  private async owned(keyId: string, reviewId: string): Promise<ReviewRecord> {
    const record = await this.deps.store.get(reviewId);
    if (record === undefined || record.key_id !== keyId)
      throw new AppError('not_found', 'Review not found');
    return record;
  }

  private async erase(reviewId: string): Promise<void> {
    const running = this.running.get(reviewId);
    if (running !== undefined) {
      this.removed.add(reviewId);
      running.abort();
    }
    this.queue.removed(reviewId);
    await this.deps.files.remove(reviewId);
    await this.deps.store.delete(reviewId);
  }

  private retentionOf(record: ReviewRecord): Record<string, unknown> {
    return {
      expires_at: record.expires_at,
      retention_seconds: this.deps.retentionSeconds,
      processor:
        'This self-hosted ibanqa instance; the file is analysed locally (unpdf, sharp, tesseract.js) and sent to no third party',
      region: this.deps.region,
      encryption: {
        upload_at_rest: 'AES-256-GCM, one random nonce per file',
        key:
          this.deps.keySource === 'configured'
            ? 'configured (IBANQA_STATEMENT_KEY)'
            : 'key file in the data directory (statements/upload.key)',
        review_record_and_report: `stored unencrypted in ${this.deps.database?.name ?? "the service's LMDB database"}`,
        in_transit:
          'whatever the deployment provides; the service itself listens on plain HTTP and gRPC',
      },
      deletion:
        'DELETE /api/v1/statement-validator/review/{review_id} removes the upload and every artifact at once; otherwise they are removed at expires_at',
    };
  }

  private viewOf(record: ReviewRecord): Record<string, unknown> {
    const base = {
      success: record.status !== 'analysis_failed',
      status: record.status,
      review_id: record.review_id,
      review_step: record.step,
      review_message: record.failure?.message ?? stepMessages[record.step],
      created_at: record.created_at,
      completed_at: record.completed_at,
      media_type: record.media_type,
      size_bytes: record.size_bytes,
      retention: this.retentionOf(record),
    };
    if (record.status === 'completed' && record.report !== null)
      return { ...base, ...record.report };
    if (record.status === 'analysis_failed' && record.failure !== null)
      return { ...base, failure: record.failure };
    return base;
  }

  /** Claims the next review while a slot is free; one claim at a time, each started analysis claims again when it ends. */
  private pump(): void {
    if (
      this.closed ||
      this.claiming !== undefined ||
      this.running.size >= limits.statementAnalysesConcurrent
    )
      return;
    this.claiming = this.queue.claim().then(
      (claim) => {
        this.claiming = undefined;
        if (claim === undefined) return;
        this.run(claim);
        this.pump();
      },
      (error: unknown) => {
        this.claiming = undefined;
        this.deps.logger.error({ err: error }, 'statement review could not be claimed');
      },
    );
  }

  private run(claim: Claim): void {
    const reviewId = claim.record.review_id;
    const controller = new AbortController();
    this.running.set(reviewId, controller);
    if (this.running.size === 1) this.idle = new Promise((resolve) => (this.settleIdle = resolve));
    void this.analyse(claim, controller)
      .catch((error: unknown) =>
        this.deps.logger.error({ err: error, reviewId }, 'statement review could not be recorded'),
      )
      .finally(() => {
        this.running.delete(reviewId);
        this.removed.delete(reviewId);
        if (this.running.size === 0) this.settleIdle();
        this.pump();
      });
  }

  /** Analyses a claimed review (already marked analyzing) and records its outcome while the claim holds. */
  private async analyse({ record, attempt }: Claim, controller: AbortController): Promise<void> {
    const reviewId = record.review_id;
    const started = performance.now();
    const outcome: AnalysisOutcome =
      attempt > limits.statementClaimsMax
        ? {
            reason: 'analysis_error',
            detail: `not analysed again: ${attempt - 1} claims on it ended with their node`,
          }
        : await this.outcomeOf(reviewId, record, controller);
    const ms = performance.now() - started;
    const name: AnalysisOutcomeName = 'report' in outcome ? 'completed' : outcome.reason;
    // A review deleted while it ran was stopped by the delete: not an analysis outcome.
    if (!this.removed.has(reviewId)) this.deps.observeAnalysis?.(name, ms / 1000);
    if (this.removed.has(reviewId)) return;
    if (!(await this.recordOutcome(record, outcome))) {
      this.deps.logger.info(
        { reviewId },
        'statement review deleted or reclaimed during its analysis',
      );
      return;
    }
    this.deps.logger.info(
      { reviewId, ms: Math.round(ms), outcome: name },
      'statement review analysed',
    );
  }

  /** Runs the analysis within its time bound; a throw becomes a failure (timeout, or an internal error). */
  private async outcomeOf(
    reviewId: string,
    record: ReviewRecord,
    controller: AbortController,
  ): Promise<AnalysisOutcome> {
    const analysisMsMax = this.deps.analysisMsMax ?? limits.statementAnalysisMsMax;
    const timeout = setTimeout(() => controller.abort(new Error('timeout')), analysisMsMax);
    try {
      let sealed: Buffer;
      try {
        sealed = await this.deps.files.readSealed(reviewId);
      } catch {
        return { reason: 'upload_lost', detail: 'the stored upload is missing' };
      }
      return this.checkedOutcome(
        await this.deps.analyze(this.taskOf(record, sealed), controller.signal),
      );
    } catch (thrown) {
      const timedOut = controller.signal.aborted && !this.removed.has(reviewId);
      if (!timedOut && !this.removed.has(reviewId))
        this.deps.logger.error({ err: thrown, reviewId }, 'statement analysis failed');
      return timedOut
        ? { reason: 'analysis_timeout', detail: `stopped after ${analysisMsMax} ms` }
        : { reason: 'analysis_error', detail: 'internal error' };
    } finally {
      clearTimeout(timeout);
    }
  }

  /** What a worker needs to analyse the review: its upload as stored, the key, and what was recorded on acceptance. */
  private taskOf(record: ReviewRecord, sealed: Buffer): StatementTask {
    const fileKind = kindOfMediaType(record.media_type);
    if (fileKind === undefined)
      throw new Error(`review records a media type no upload has: ${record.media_type}`);
    return {
      kind: 'statement-analysis',
      reviewId: record.review_id,
      sealed,
      key: this.deps.key,
      fileKind,
      expectedBank: record.expected_bank,
      expectedBankSlug: record.expected_bank_slug,
      callerPaid: record.caller_paid,
      now: this.deps.now().toISOString(),
    };
  }

  /** The worker's answer, checked where it crosses back: a report off its schema or an unknown reason is a bug. */
  private checkedOutcome(result: StatementTaskResult): AnalysisOutcome {
    if (result.ok) return { report: this.deps.readReport(result.report) };
    if (!isFailureReason(result.reason))
      throw new Error(`the analysis answered an unknown failure reason: ${result.reason}`);
    return { reason: result.reason, detail: result.detail };
  }

  /**
   * The completed or failed review, written through the queue (only while this node's claim holds); a failure whose
   * reason is refunded gives the charge back once written, so a review two nodes analysed is refunded at most once.
   */
  private async recordOutcome(record: ReviewRecord, outcome: AnalysisOutcome): Promise<boolean> {
    const completedAt = this.deps.now().toISOString();
    if ('report' in outcome)
      return this.queue.finish({
        ...record,
        status: 'completed',
        step: 'done',
        report: outcome.report,
        completed_at: completedAt,
      });
    const refunded = failureReasons[outcome.reason].refunded && record.charge !== null;
    const failure = {
      reason: outcome.reason,
      message: `${failureReasons[outcome.reason].message}: ${outcome.detail}`,
      refunded,
    };
    const written = await this.queue.finish({
      ...record,
      status: 'analysis_failed',
      step: 'done',
      failure,
      completed_at: completedAt,
    });
    if (written && refunded && record.charge !== null)
      await this.deps.meter
        .refundCommitted(record.charge)
        .catch((error: unknown) =>
          this.deps.logger.error(
            { err: error, reviewId: record.review_id },
            'statement credit refund failed',
          ),
        );
    return written;
  }
}
