import type pg from 'pg';
import { limits } from '../../limits.js';
import { encryptUpload, uploadKeyFingerprint } from '../upload-cipher.js';
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

  /**
   * Records this key's fingerprint if no node did yet, else compares with the recorded one: a node with another
   * upload key (IBANQA_STATEMENT_KEY unset, so its own key file, or set differently) refuses to start rather than
   * store uploads no other node can read.
   */
  async open(): Promise<void> {
    const fingerprint = uploadKeyFingerprint(this.key);
    await this.pool.query(
      'INSERT INTO statement_upload_key (fingerprint) VALUES ($1) ON CONFLICT (singleton) DO NOTHING',
      [fingerprint],
    );
    const { rows } = await this.pool.query<{ fingerprint: string }>(
      'SELECT fingerprint FROM statement_upload_key',
    );
    const recorded = rows[0]?.fingerprint;
    if (recorded !== fingerprint)
      throw new Error(
        `statement reviews: this node's upload key (fingerprint ${fingerprint.slice(0, 16)}) is not the one the ` +
          `other nodes on this database use (${recorded?.slice(0, 16) ?? 'none'}): set the same IBANQA_STATEMENT_KEY ` +
          '(64 hex characters) on every node',
      );
  }

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
