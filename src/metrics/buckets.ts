import { limits } from '../limits.js';

/** The longest a statement analysis may run (its time bound), in seconds. */
const analysisMaxSeconds = limits.statementAnalysisMsMax / 1000;

/**
 * Histogram bucket upper bounds (seconds), each set chosen once here with its reason. Steps of 1-2.5-5 per decade,
 * so a quantile estimate is within a factor of about two wherever it falls; each bucket is one more series per
 * label set, so the ranges stop where the service's own bounds make larger values impossible or meaningless.
 */

/** 1-2.5-5 steps over the decades from 10^from to 10^to seconds, then 10^to itself. */
function decades(from: number, to: number): readonly number[] {
  const bounds: number[] = [];
  for (let exponent = from; exponent < to; exponent++)
    for (const step of [1, 2.5, 5]) bounds.push(Number((step * 10 ** exponent).toPrecision(2)));
  bounds.push(10 ** to);
  return Object.freeze(bounds);
}

export const buckets = {
  /** Requests, 100 µs to 10 s: an inline 100-IBAN /validate costs about 300 µs of CPU (bench/RESULTS.md), a keyed
   *  answer waits for a durable commit (0.4-4.4 ms on disk), pooled bulk runs take tens of ms to seconds; a longer
   *  call (a gRPC stream's whole life) lands in +Inf, where its count is still kept. */
  request: decades(-4, 1),
  /** Pool tasks, 1 ms to 60 s: a pooled run has at least the pool threshold's rows (ms and up) and a statement
   *  analysis is stopped at its time bound (limits.statementAnalysisMsMax, 60 s). */
  poolTask: [...decades(-3, 1), 30, analysisMaxSeconds],
  /** Durable ledger commits, 10 µs to 1 s: `process` durability commits in 0.03-0.3 ms, `disk` in 0.4-4.4 ms (p50-p99,
   *  src/accounts/ledger-durability.ts); a commit past a second means the disk is in trouble, not a finer figure. */
  ledgerCommit: decades(-5, 0),
  /** Statement analyses, 10 ms to 60 s: a text PDF well under 1 s, an image page 1-3 s of OCR, stopped at the
   *  time bound. */
  statementAnalysis: [...decades(-2, 1), 30, analysisMaxSeconds],
} as const;
