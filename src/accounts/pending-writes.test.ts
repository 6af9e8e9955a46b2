import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PendingWrites } from './pending-writes.js';

/** A promise settled from outside, standing in for an LMDB write in flight. */
function deferred(): {
  promise: Promise<boolean>;
  resolve: () => void;
  reject: (error: Error) => void;
} {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<boolean>((ok, fail) => {
    resolve = () => ok(true);
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('PendingWrites', () => {
  test('flush waits for every tracked write and counts them meanwhile', async () => {
    const writes = new PendingWrites();
    const first = deferred();
    const second = deferred();
    void writes.track(first.promise);
    void writes.track(second.promise);
    assert.equal(writes.size, 2);
    let flushed = false;
    const flush = writes.flush().then(() => (flushed = true));
    first.resolve();
    await first.promise;
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(flushed, false, 'one write is still running');
    second.resolve();
    await flush;
    assert.equal(writes.size, 0);
  });

  test('the first failure is rethrown by the next flush only, after every write settled', async () => {
    const writes = new PendingWrites();
    const failing = deferred();
    const later = deferred();
    writes.track(failing.promise).catch(() => undefined);
    void writes.track(later.promise);
    failing.reject(new Error('disk full'));
    writes.track(Promise.reject(new Error('second'))).catch(() => undefined);
    setImmediate(() => later.resolve());
    await assert.rejects(writes.flush(), /disk full/);
    assert.equal(writes.size, 0);
    await writes.flush();
  });

  test("with keepFailures off, a failure is its caller's alone and flush resolves", async () => {
    const writes = new PendingWrites({ keepFailures: false });
    await assert.rejects(
      writes.track(Promise.reject(new Error('reported to the caller'))),
      /reported to the caller/,
    );
    await writes.flush();
  });
});
