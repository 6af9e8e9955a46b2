/**
 * Watches live in the registry environment, keyed [key_id, watch_id]: a key only ever reads its own
 * prefix, so another key's watch is indistinguishable from a missing one. A watch is one source/record
 * pair; creating the same pair again returns the existing watch (same id), so retries are harmless.
 */
import { AppError } from '../../errors.js';
import { sha256Hex } from './identity.js';
import type { RegistryStore } from './registry-store.js';
import type { Watch } from './types.js';

/** OUR DECISION (spec: "Numeric plan limits for registry watchlists: not shown"): enough for a bank list, bounded per key. */
export const WATCHES_PER_KEY_MAX = 1_000;
const WATCH_ID_HEX_CHARS = 20;

export function watchIdOf(keyId: string, sourceId: string, recordKey: string): string {
  return `wl_${sha256Hex(`${keyId}\u0000${sourceId}\u0000${recordKey}`).slice(0, WATCH_ID_HEX_CHARS)}`;
}

export function createWatch(store: RegistryStore, keyId: string, sourceId: string, recordKey: string, now: Date): Watch {
  const watchId = watchIdOf(keyId, sourceId, recordKey);
  const existing = store.dbs.watches.get([keyId, watchId]);
  if (existing !== undefined) return existing;
  if (listWatches(store, keyId).length >= WATCHES_PER_KEY_MAX) {
    throw new AppError('conflict', `This key already has ${WATCHES_PER_KEY_MAX} watches, the most a key may hold; delete one first`);
  }
  const watch: Watch = { watch_id: watchId, key_id: keyId, source_id: sourceId, record_key: recordKey, created_at: now.toISOString() };
  store.dbs.watches.putSync([keyId, watchId], watch);
  return watch;
}

export function listWatches(store: RegistryStore, keyId: string): Watch[] {
  return [...store.dbs.watches.getRange({ start: [keyId], end: [keyId, '\uffff'] })].map((entry) => entry.value);
}

export function findWatch(store: RegistryStore, keyId: string, watchId: string): Watch {
  const watch = store.dbs.watches.get([keyId, watchId]);
  if (watch === undefined) throw new AppError('not_found', `No watch ${watchId} for this API key`);
  return watch;
}

export function deleteWatch(store: RegistryStore, keyId: string, watchId: string): Watch {
  const watch = findWatch(store, keyId, watchId);
  store.dbs.watches.removeSync([keyId, watchId]);
  return watch;
}
