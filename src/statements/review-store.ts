import type { CommittedCharge } from '../ports/credits.js';
import type { FailureReason } from './failure.js';

export type ReviewStatus = 'pending_analysis' | 'completed' | 'analysis_failed';
export type ReviewStep = 'queued' | 'analyzing' | 'done';

/** The statement credit taken on acceptance, kept so a refund finds its period even after a restart. */
export type ReviewCharge = CommittedCharge;

/**
 * A completed review's report as the workflow keeps it: a JSON object it stores and shows whole. The op
 * shapes it (src/ops/statements/report.ts) and checks it where it leaves the worker (readReport).
 */
export type ReviewReport = Readonly<Record<string, unknown>>;

/** One review's metadata and, once done, its report. Never the upload's bytes or its extracted text beyond the report. */
export interface ReviewRecord {
  readonly review_id: string;
  readonly key_id: string;
  readonly status: ReviewStatus;
  readonly step: ReviewStep;
  readonly created_at: string;
  readonly expires_at: string;
  readonly media_type: string;
  readonly size_bytes: number;
  readonly expected_bank: string | null;
  readonly expected_bank_slug: string | null;
  /** Plan and paid flag at upload time: the report locks bank fields as the caller's plan did then. */
  readonly caller_paid: boolean;
  readonly charge: ReviewCharge | null;
  readonly report: ReviewReport | null;
  readonly failure: {
    readonly reason: FailureReason;
    readonly message: string;
    readonly refunded: boolean;
  } | null;
  readonly completed_at: string | null;
}

/**
 * Review metadata behind an async port: the LMDB implementation lives in the accounts environment
 * (src/accounts/review-store-lmdb.ts), the in-memory twin in review-store-memory.ts; both pass
 * review-store.contract.ts.
 */
export interface ReviewStore {
  put(record: ReviewRecord): Promise<void>;
  get(reviewId: string): Promise<ReviewRecord | undefined>;
  /** false when there was nothing to delete. */
  delete(reviewId: string): Promise<boolean>;
  /** Reviews whose expires_at is at or before `now`, oldest first, at most `max`. */
  expired(now: Date, max: number): Promise<ReviewRecord[]>;
  /** Reviews still pending_analysis (to resume after a restart), oldest first. */
  pending(): Promise<ReviewRecord[]>;
  /** Every review id held (to find orphan upload files). */
  ids(): Promise<string[]>;
}
