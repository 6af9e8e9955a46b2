import type { Database } from 'lmdb';
import type { ReviewRecord, ReviewStore } from './review-store.js';
import type { AccountStore } from '../accounts/account-store.js';

/**
 * Statement review metadata in the accounts LMDB environment (sub-database 'statement_reviews').
 * Layout, one sub-database with two key families:
 *   "r <review_id>"              -> the record
 *   "x <expires_at> <review_id>" -> the review id, so the sweeper reads expired reviews in expiry order
 * A record and its expiry key are written and removed in one transaction.
 */
const SEPARATOR = ' ';
const RECORD = 'r';
const EXPIRY = 'x';

type Entry = ReviewRecord | string;

const recordKey = (reviewId: string) => `${RECORD}${SEPARATOR}${reviewId}`;
const expiryKey = (record: Pick<ReviewRecord, 'expires_at' | 'review_id'>) =>
  [EXPIRY, record.expires_at, record.review_id].join(SEPARATOR);

export class LmdbReviewStore implements ReviewStore {
  private constructor(private readonly db: Database<Entry, string>) {}

  static open(accounts: AccountStore): LmdbReviewStore {
    return new LmdbReviewStore(accounts.subDatabase<Entry>('statement_reviews'));
  }

  async put(record: ReviewRecord): Promise<void> {
    await this.db.transaction(() => {
      const previous = this.db.get(recordKey(record.review_id));
      if (
        previous !== undefined &&
        typeof previous !== 'string' &&
        previous.expires_at !== record.expires_at
      )
        void this.db.remove(expiryKey(previous));
      // Inside the transaction callback the writes are part of it; their own promises add nothing.
      void this.db.put(recordKey(record.review_id), record);
      void this.db.put(expiryKey(record), record.review_id);
    });
  }

  async get(reviewId: string): Promise<ReviewRecord | undefined> {
    const entry = this.db.get(recordKey(reviewId));
    return entry === undefined || typeof entry === 'string' ? undefined : entry;
  }

  async delete(reviewId: string): Promise<boolean> {
    return this.db.transaction(() => {
      const entry = this.db.get(recordKey(reviewId));
      if (entry === undefined || typeof entry === 'string') return false;
      void this.db.remove(recordKey(reviewId));
      void this.db.remove(expiryKey(entry));
      return true;
    });
  }

  async expired(now: Date, max: number): Promise<ReviewRecord[]> {
    // Exclusive end: every fixed-width ISO expiry up to and including `now` sorts before now + 1 ms.
    const end = [EXPIRY, new Date(now.getTime() + 1).toISOString()].join(SEPARATOR);
    const records: ReviewRecord[] = [];
    for (const { value } of this.db.getRange({ start: EXPIRY + SEPARATOR, end, limit: max })) {
      const record = typeof value === 'string' ? await this.get(value) : undefined;
      if (record !== undefined) records.push(record);
    }
    return records;
  }

  async pending(): Promise<ReviewRecord[]> {
    const records: ReviewRecord[] = [];
    for (const { value } of this.db.getRange({ start: RECORD + SEPARATOR, end: RECORD + '!' })) {
      if (typeof value !== 'string' && value.status === 'pending_analysis') records.push(value);
    }
    return records.sort(
      (a, b) => a.created_at.localeCompare(b.created_at) || a.review_id.localeCompare(b.review_id),
    );
  }

  async ids(): Promise<string[]> {
    const ids: string[] = [];
    for (const { key } of this.db.getRange({ start: RECORD + SEPARATOR, end: RECORD + '!' }))
      ids.push(key.slice(RECORD.length + SEPARATOR.length));
    return ids;
  }
}
