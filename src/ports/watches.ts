/** One registry source record an API key watches for published changes. */
export interface Watch {
  readonly watch_id: string;
  readonly key_id: string;
  readonly source_id: string;
  readonly record_key: string;
  readonly created_at: string;
}

/**
 * Registry watches, scoped to the API key: a key only ever reaches its own, so another key's watch is
 * indistinguishable from a missing one (AppError not_found). Creating the same pair again returns the
 * existing watch; at most `perKeyMax` per key (AppError conflict beyond).
 */
export interface WatchStore {
  create(keyId: string, sourceId: string, recordKey: string, now: Date): Promise<Watch>;
  list(keyId: string): Promise<Watch[]>;
  find(keyId: string, watchId: string): Promise<Watch>;
  remove(keyId: string, watchId: string): Promise<Watch>;
}
