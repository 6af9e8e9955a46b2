/**
 * Registry watches in the shared database, with the same ids (watchIdOf) and rules as the LMDB store: scoped to
 * the key, the same pair again is the same watch, at most limits.accounts.watchesPerKeyMax per key. A create is
 * one call of the create_watch function (src/postgres/migrations.ts), which counts and inserts under a
 * transaction-level advisory lock on the key, so concurrent creates on any nodes cannot both take the last slot.
 */
import type pg from 'pg';
import { watchIdOf } from '../accounts/watch-store.js';
import { AppError } from '../errors.js';
import { limits } from '../limits.js';
import type { Watch, WatchStore } from '../ports/watches.js';

const columns = 'watch_id, key_id, source_id, record_key, created_at';

function notFound(watchId: string): AppError {
  return new AppError('not_found', `No watch ${watchId} for this API key`);
}

export class PgWatchStore implements WatchStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(keyId: string, sourceId: string, recordKey: string, now: Date): Promise<Watch> {
    const { rows } = await this.pool.query<Watch>(
      `SELECT ${columns} FROM create_watch($1, $2, $3, $4, $5, $6)`,
      [
        keyId,
        watchIdOf(keyId, sourceId, recordKey),
        sourceId,
        recordKey,
        now.toISOString(),
        limits.accounts.watchesPerKeyMax,
      ],
    );
    if (rows[0] === undefined)
      throw new AppError(
        'conflict',
        `This key already has ${limits.accounts.watchesPerKeyMax} watches, the most a key may hold; delete one first`,
      );
    return rows[0];
  }

  async list(keyId: string): Promise<Watch[]> {
    const { rows } = await this.pool.query<Watch>(
      `SELECT ${columns} FROM watches WHERE key_id = $1 ORDER BY watch_id`,
      [keyId],
    );
    return rows;
  }

  async find(keyId: string, watchId: string): Promise<Watch> {
    const { rows } = await this.pool.query<Watch>(
      `SELECT ${columns} FROM watches WHERE key_id = $1 AND watch_id = $2`,
      [keyId, watchId],
    );
    if (rows[0] === undefined) throw notFound(watchId);
    return rows[0];
  }

  async remove(keyId: string, watchId: string): Promise<Watch> {
    const { rows } = await this.pool.query<Watch>(
      `DELETE FROM watches WHERE key_id = $1 AND watch_id = $2 RETURNING ${columns}`,
      [keyId, watchId],
    );
    if (rows[0] === undefined) throw notFound(watchId);
    return rows[0];
  }
}
