import type pg from 'pg';
import { limits } from '../../limits.js';
import { encryptUpload } from '../upload-cipher.js';
import type { UploadStore } from '../upload-store.js';

/**
 * Encrypted uploads in PostgreSQL (bytea, schema.ts), so a node analyses or deletes an upload another node
 * took. The bytes are what encryptUpload made, as on disk: the database never holds a plain upload.
 */
export class PgUploadStore implements UploadStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly key: Buffer,
  ) {}

  async write(reviewId: string, plain: Uint8Array): Promise<void> {
    // One statement: the row is there whole or not at all.
    await this.pool.query(
      `INSERT INTO statement_uploads (review_id, sealed) VALUES ($1, $2)
       ON CONFLICT (review_id) DO UPDATE SET sealed = EXCLUDED.sealed, stored_at = now()`,
      [reviewId, encryptUpload(this.key, reviewId, plain)],
    );
  }

  async readSealed(reviewId: string): Promise<Buffer> {
    const { rows } = await this.pool.query<{ sealed: Buffer }>(
      'SELECT sealed FROM statement_uploads WHERE review_id = $1',
      [reviewId],
    );
    const sealed = rows[0]?.sealed;
    if (sealed === undefined) throw new Error(`no stored upload for review ${reviewId}`);
    return sealed;
  }

  async remove(reviewId: string): Promise<void> {
    await this.pool.query('DELETE FROM statement_uploads WHERE review_id = $1', [reviewId]);
  }

  async list(): Promise<string[]> {
    const { rows } = await this.pool.query<{ review_id: string }>(
      `SELECT review_id FROM statement_uploads
       WHERE stored_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [limits.statementOrphanUploadMs],
    );
    return rows.map((row) => row.review_id);
  }
}
