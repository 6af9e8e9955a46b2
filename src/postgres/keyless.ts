/**
 * The keyless daily allowance in the shared database: one row per (UTC day, client), so a client spreading its
 * requests over the nodes still gets limits.keylessIbansPerDayMax a day in total. A take is one conditional
 * upsert (all or nothing); earlier days are deleted as a new day begins.
 */
import type pg from 'pg';
import { assert } from '../assert.js';
import { clientKeyOf } from '../accounts/keyless-limit.js';
import { PendingWrites } from '../accounts/pending-writes.js';
import { limits } from '../limits.js';
import type { KeylessLimiter, KeylessOutcome } from '../ports/keyless.js';
import { unflushed } from './transaction.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const utcDayOf = (now: Date) => now.toISOString().slice(0, 10);
const nextUtcMidnight = (now: Date) =>
  new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS).toISOString();

export class PgKeylessLimiter implements KeylessLimiter {
  /** The last day this process swept earlier days for: one delete per node per day. */
  private sweptDay: string | null = null;
  private readonly writes = new PendingWrites();

  constructor(private readonly pool: pg.Pool) {}

  async take(ip: string, items: number, now: Date): Promise<KeylessOutcome> {
    assert(Number.isSafeInteger(items) && items >= 0, `bad keyless item count ${items}`);
    const day = utcDayOf(now);
    const client = clientKeyOf(ip);
    const resetsAt = nextUtcMidnight(now);
    this.sweepBefore(day);
    const max = limits.keylessIbansPerDayMax;
    if (items > 0 && items <= max) {
      const { rows } = await unflushed<{ used: number }>(
        this.pool,
        `INSERT INTO keyless_usage AS k (day, client, used) VALUES ($1, $2, $3)
         ON CONFLICT (day, client) DO UPDATE SET used = k.used + EXCLUDED.used WHERE k.used + EXCLUDED.used <= $4
         RETURNING used`,
        [day, client, items, max],
      );
      if (rows[0] !== undefined)
        return { ok: true, remaining: max - rows[0].used, resets_at: resetsAt };
    }
    const { rows } = await this.pool.query<{ used: number }>(
      'SELECT used FROM keyless_usage WHERE day = $1 AND client = $2',
      [day, client],
    );
    const remaining = max - (rows[0]?.used ?? 0);
    return { ok: items <= remaining, remaining, resets_at: resetsAt };
  }

  /** Gives back what a request took; a refund after midnight has nothing to return (that day is over). */
  async refund(ip: string, items: number, now: Date): Promise<void> {
    assert(Number.isSafeInteger(items) && items >= 0, `bad keyless item count ${items}`);
    if (items === 0) return;
    await this.pool.query(
      'UPDATE keyless_usage SET used = greatest(0, used - $3) WHERE day = $1 AND client = $2',
      [utcDayOf(now), clientKeyOf(ip), items],
    );
  }

  async flush(): Promise<void> {
    await this.writes.flush();
  }

  private sweepBefore(day: string): void {
    if (this.sweptDay === day) return;
    this.sweptDay = day;
    this.writes
      .track(this.pool.query('DELETE FROM keyless_usage WHERE day < $1', [day]))
      .catch(() => undefined); // kept and rethrown by flush()
  }
}
