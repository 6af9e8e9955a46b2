import type pg from 'pg';
import type { ReviewRecord, ReviewStore } from '../review-store.js';

/** Review records in PostgreSQL (schema.ts), shared by every node; the claim columns are the queue's. */
export class PgReviewStore implements ReviewStore {
  constructor(private readonly pool: pg.Pool) {}

  async put(record: ReviewRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO statement_reviews (review_id, status, created_at, expires_at, record)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (review_id) DO UPDATE SET status = EXCLUDED.status, created_at = EXCLUDED.created_at,
         expires_at = EXCLUDED.expires_at, record = EXCLUDED.record`,
      [
        record.review_id,
        record.status,
        record.created_at,
        record.expires_at,
        JSON.stringify(record),
      ],
    );
  }

  async get(reviewId: string): Promise<ReviewRecord | undefined> {
    const { rows } = await this.pool.query<{ record: ReviewRecord }>(
      'SELECT record FROM statement_reviews WHERE review_id = $1',
      [reviewId],
    );
    return rows[0]?.record;
  }

  async delete(reviewId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'DELETE FROM statement_reviews WHERE review_id = $1',
      [reviewId],
    );
    return rowCount === 1;
  }

  async expired(now: Date, max: number): Promise<ReviewRecord[]> {
    const { rows } = await this.pool.query<{ record: ReviewRecord }>(
      `SELECT record FROM statement_reviews WHERE expires_at <= $1
       ORDER BY expires_at, review_id LIMIT $2`,
      [now.toISOString(), max],
    );
    return rows.map((row) => row.record);
  }

  async pending(): Promise<ReviewRecord[]> {
    const { rows } = await this.pool.query<{ record: ReviewRecord }>(
      `SELECT record FROM statement_reviews WHERE status = 'pending_analysis'
       ORDER BY created_at, review_id`,
    );
    return rows.map((row) => row.record);
  }

  async ids(): Promise<string[]> {
    const { rows } = await this.pool.query<{ review_id: string }>(
      'SELECT review_id FROM statement_reviews',
    );
    return rows.map((row) => row.review_id);
  }
}
