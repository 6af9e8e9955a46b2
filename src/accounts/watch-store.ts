/**
 * Registry watches of API keys, in the accounts environment (per-key state; the registry environment is
 * read-only to the service). Keys are "<key id> <watch id>": a key only ever reads its own prefix, so
 * another key's watch is indistinguishable from a missing one. A watch is one source/record pair;
 * creating the same pair again returns the existing watch (same id), so retries are harmless.
 */
import { createHash } from 'node:crypto';
import { AppError } from '../errors.js';
import type { Watch, WatchStore } from '../ports/watches.js';
import type { Table } from './table.js';
import { limits } from '../limits.js';

/** 80 bits of SHA-256: ids stay short in URLs and cannot collide within one key's thousand watches in practice. */
const WATCH_ID_HEX_CHARS = 20;
/** A space never occurs in a key id or a watch id, and sorts before every character of either. */
const SEPARATOR = ' ';

export function watchIdOf(keyId: string, sourceId: string, recordKey: string): string {
  const digest = createHash('sha256')
    .update(`${keyId}\u0000${sourceId}\u0000${recordKey}`)
    .digest('hex');
  return `wl_${digest.slice(0, WATCH_ID_HEX_CHARS)}`;
}

const entryKey = (keyId: string, watchId: string) => `${keyId}${SEPARATOR}${watchId}`;

export class TableWatchStore implements WatchStore {
  /**
   * Per key, the watches written but not yet committed. A read does not see an uncommitted lmdb write, so
   * without these, concurrent creates would each count the same committed watches and pass the maximum.
   */
  private readonly pending = new Map<string, Map<string, Watch>>();

  constructor(private readonly table: Table<Watch>) {}

  /** Checks and registers in one synchronous step, so concurrent creates cannot both take the last slot. */
  async create(keyId: string, sourceId: string, recordKey: string, now: Date): Promise<Watch> {
    const watchId = watchIdOf(keyId, sourceId, recordKey);
    const pending = this.pending.get(keyId) ?? new Map<string, Watch>();
    const existing = this.table.get(entryKey(keyId, watchId)) ?? pending.get(watchId);
    if (existing !== undefined) return existing;
    if (this.countOf(keyId, pending) >= limits.accounts.watchesPerKeyMax) {
      throw new AppError(
        'conflict',
        `This key already has ${limits.accounts.watchesPerKeyMax} watches, the most a key may hold; delete one first`,
      );
    }
    const watch: Watch = {
      watch_id: watchId,
      key_id: keyId,
      source_id: sourceId,
      record_key: recordKey,
      created_at: now.toISOString(),
    };
    pending.set(watchId, watch);
    this.pending.set(keyId, pending);
    try {
      await this.table.put(entryKey(keyId, watchId), watch);
    } finally {
      pending.delete(watchId);
      if (pending.size === 0) this.pending.delete(keyId);
    }
    return watch;
  }

  list(keyId: string): Promise<Watch[]> {
    return Promise.resolve(this.committed(keyId));
  }

  find(keyId: string, watchId: string): Promise<Watch> {
    const watch = this.table.get(entryKey(keyId, watchId));
    if (watch === undefined)
      return Promise.reject(new AppError('not_found', `No watch ${watchId} for this API key`));
    return Promise.resolve(watch);
  }

  /** Committed plus pending; a table that shows writes at once (MemoryTable) holds some of both. */
  private countOf(keyId: string, pending: ReadonlyMap<string, Watch>): number {
    let unseen = 0;
    for (const watchId of pending.keys())
      if (this.table.get(entryKey(keyId, watchId)) === undefined) unseen++;
    return this.committed(keyId).length + unseen;
  }

  private committed(keyId: string): Watch[] {
    const range = this.table.getRange({
      start: `${keyId}${SEPARATOR}`,
      end: `${keyId}${SEPARATOR}\uffff`,
    });
    return [...range].map((entry) => entry.value);
  }

  async remove(keyId: string, watchId: string): Promise<Watch> {
    const watch = await this.find(keyId, watchId);
    await this.table.remove(entryKey(keyId, watchId));
    return watch;
  }
}
