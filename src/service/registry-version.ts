import type { BankDirectory } from '../registry/bank-directory.js';

/**
 * The registry version a request is answered from, read from LMDB once per event-loop turn of this thread: the
 * requests that reach their run in the same turn share the read, and the turn's end (setImmediate, which runs
 * before the loop polls for more bytes) drops it. A request sent after an import committed is read in a later
 * turn than any read made before the commit, so it is answered from the new version, as when every request read.
 * Only for threads whose event loop turns between requests (the main thread, REST front threads): a pool worker
 * takes its next task without returning to its loop, so it reads the version itself (`syncVersion`) each task.
 */
export class TurnVersion {
  private version: number | undefined;
  private readonly endTurn = () => {
    this.version = undefined;
  };

  constructor(private readonly bank: Pick<BankDirectory, 'syncVersion'> | undefined) {}

  read(): number {
    if (this.version !== undefined) return this.version;
    if (this.bank === undefined) return 0;
    const version = this.bank.syncVersion();
    this.version = version;
    setImmediate(this.endTurn);
    return version;
  }
}
