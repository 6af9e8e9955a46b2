/**
 * The asynchronous LMDB writes a store has issued and not yet seen settle, so a stop can wait for them (the
 * account store, the idempotency store and the meter each keep one). By default the first failed write is
 * kept and rethrown once by the next flush, because the code that issued it may not be listening; a store
 * whose callers each receive their own write's failure turns that off.
 */
export class PendingWrites {
  private readonly writes = new Set<Promise<unknown>>();
  private failed = false;
  private failure: unknown = undefined;

  constructor(
    private readonly options: { readonly keepFailures: boolean } = { keepFailures: true },
  ) {}

  /** Registers `write` until it settles; returns it unchanged. */
  track<T>(write: Promise<T>): Promise<T> {
    this.writes.add(write);
    write.then(
      () => this.writes.delete(write),
      (error: unknown) => {
        this.writes.delete(write);
        if (this.options.keepFailures && !this.failed) {
          this.failed = true;
          this.failure = error;
        }
      },
    );
    return write;
  }

  /** Writes not settled yet. */
  get size(): number {
    return this.writes.size;
  }

  /** Resolves when every write tracked so far has settled; rethrows a kept failure once. */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.writes]);
    if (!this.failed) return;
    const failure = this.failure;
    this.failed = false;
    this.failure = undefined;
    throw failure;
  }
}
