import type { ReviewRecord, ReviewStore } from './review-store.js';

/**
 * Which pending review a node analyses next, behind a port: the local queue below (one node, LMDB or memory)
 * or the PostgreSQL table every node claims from (postgres/analysis-queue-pg.ts). A claim marks the review
 * `analyzing` in the same step, and only the claim's holder writes the outcome back.
 */
export interface AnalysisQueue {
  /** A review this node accepted (the local queue holds it; a shared table already has it). */
  added(reviewId: string): void;
  /** A review deleted on this node. */
  removed(reviewId: string): void;
  /** Reviews waiting for an analysis, for the overload bound on uploads. */
  waiting(): Promise<number>;
  /** The next pending review for this node, already marked analyzing; undefined when none is free. */
  claim(): Promise<Claim | undefined>;
  /** Writes the analysed review while this node's claim holds and the review exists; false when it does not. */
  finish(record: ReviewRecord): Promise<boolean>;
  /** How often an idle node looks for reviews other nodes accepted; null when only its own accepts add work. */
  readonly pollMs: number | null;
  /** Picks up the reviews a restart interrupted; returns how many. */
  resume(): Promise<number>;
}

/** A claimed review, and how many times it was claimed (this claim included): a count that keeps growing means
 *  each claimant died before it could record an outcome. */
export interface Claim {
  readonly record: ReviewRecord;
  readonly attempt: number;
}

/** One node's queue: review ids in memory, the records in the node's ReviewStore. */
export class LocalAnalysisQueue implements AnalysisQueue {
  private readonly ids: string[] = [];
  readonly pollMs = null;

  constructor(private readonly store: ReviewStore) {}

  added(reviewId: string): void {
    this.ids.push(reviewId);
  }

  removed(reviewId: string): void {
    const index = this.ids.indexOf(reviewId);
    if (index >= 0) this.ids.splice(index, 1);
  }

  async waiting(): Promise<number> {
    return this.ids.length;
  }

  /** Always a first attempt: a single node that stopped mid-analysis resumes its reviews at its next start. */
  async claim(): Promise<Claim | undefined> {
    for (let reviewId = this.ids.shift(); reviewId !== undefined; reviewId = this.ids.shift()) {
      const record = await this.store.get(reviewId);
      if (record === undefined || record.status !== 'pending_analysis') continue;
      const analyzing: ReviewRecord = { ...record, step: 'analyzing' };
      await this.store.put(analyzing);
      return { record: analyzing, attempt: 1 };
    }
    return undefined;
  }

  async finish(record: ReviewRecord): Promise<boolean> {
    if ((await this.store.get(record.review_id)) === undefined) return false;
    await this.store.put(record);
    return true;
  }

  async resume(): Promise<number> {
    const pending = await this.store.pending();
    for (const record of pending) this.ids.push(record.review_id);
    return pending.length;
  }
}
