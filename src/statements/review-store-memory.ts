import type { ReviewRecord, ReviewStore } from './review-store.js';

/** The in-memory twin of the LMDB review store: same contract, nothing survives the process. */
export class MemoryReviewStore implements ReviewStore {
  private readonly records = new Map<string, ReviewRecord>();

  async put(record: ReviewRecord): Promise<void> {
    this.records.set(record.review_id, record);
  }

  async get(reviewId: string): Promise<ReviewRecord | undefined> {
    return this.records.get(reviewId);
  }

  async delete(reviewId: string): Promise<boolean> {
    return this.records.delete(reviewId);
  }

  async expired(now: Date, max: number): Promise<ReviewRecord[]> {
    const cutoff = now.toISOString();
    return [...this.records.values()]
      .filter((record) => record.expires_at <= cutoff)
      .sort(
        (a, b) =>
          a.expires_at.localeCompare(b.expires_at) || a.review_id.localeCompare(b.review_id),
      )
      .slice(0, max);
  }

  async pending(): Promise<ReviewRecord[]> {
    return [...this.records.values()]
      .filter((record) => record.status === 'pending_analysis')
      .sort(
        (a, b) =>
          a.created_at.localeCompare(b.created_at) || a.review_id.localeCompare(b.review_id),
      );
  }

  async ids(): Promise<string[]> {
    return [...this.records.keys()];
  }
}
