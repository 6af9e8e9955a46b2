/**
 * The key-value shape the accounts stores are written against: an lmdb-js sub-database satisfies it as it
 * is, and MemoryTable is the in-memory twin for tests and for a deployment with no disk state. Keys are
 * strings; ranges run in key order, `end` exclusive, like lmdb-js.
 */
export interface Table<V> {
  get(key: string): V | undefined;
  /** Resolves when the write is committed (lmdb-js batches the writes issued in one turn into one transaction). */
  put(key: string, value: V): Promise<unknown>;
  remove(key: string): Promise<unknown>;
  getRange(options: {
    start?: string;
    end?: string;
    limit?: number;
  }): Iterable<{ key: string; value: V }>;
}

export class MemoryTable<V> implements Table<V> {
  private readonly entries = new Map<string, V>();

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  put(key: string, value: V): Promise<boolean> {
    this.entries.set(key, value);
    return Promise.resolve(true);
  }

  remove(key: string): Promise<boolean> {
    return Promise.resolve(this.entries.delete(key));
  }

  *getRange(options: {
    start?: string;
    end?: string;
    limit?: number;
  }): Iterable<{ key: string; value: V }> {
    const keys = [...this.entries.keys()].sort();
    let yielded = 0;
    for (const key of keys) {
      if (options.start !== undefined && key < options.start) continue;
      if (options.end !== undefined && key >= options.end) break;
      if (options.limit !== undefined && yielded >= options.limit) break;
      yielded++;
      yield { key, value: this.entries.get(key) as V };
    }
  }
}
