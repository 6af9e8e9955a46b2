/**
 * Watches used to live in the registry environment. They are per-key state, so they now live in the
 * accounts environment; on start, watches still in the registry are copied over once (same ids), so an
 * upgrade keeps every key's watchlist. The registry copy is left as it was and no longer read.
 */
import type { Watch } from '../ports/watches.js';
import type { Table } from './table.js';

const SEPARATOR = ' ';

/** Copies the legacy watches the accounts table does not hold yet; returns how many it copied. */
export async function migrateLegacyWatches(
  legacy: Iterable<{ value: Watch }>,
  table: Table<Watch>,
): Promise<number> {
  const writes: Promise<unknown>[] = [];
  for (const { value: watch } of legacy) {
    const key = `${watch.key_id}${SEPARATOR}${watch.watch_id}`;
    if (table.get(key) === undefined) writes.push(table.put(key, watch));
  }
  await Promise.all(writes);
  return writes.length;
}
