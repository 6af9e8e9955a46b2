import { limits } from '../../limits.js';

/**
 * Body reads still waiting for their last byte, each with the moment its head arrived. One sweep every
 * httpBodyDeadlineSweepMs expires the late ones, instead of a timer per request: a complete body (almost every
 * request) costs one Map insert and delete, and the sweep runs only while a read is pending.
 */
const pending = new Map<object, { readonly since: number; readonly expire: () => void }>();
let sweeper: NodeJS.Timeout | undefined;

function sweep(): void {
  const now = Date.now();
  for (const [read, entry] of pending) {
    if (now - entry.since < limits.httpBodyDeadlineMs) continue;
    pending.delete(read);
    entry.expire();
  }
  if (pending.size === 0 && sweeper !== undefined) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

/** Calls `expire` once the read is still pending at the deadline; the returned function ends the watch. */
export function watchBodyDeadline(expire: () => void): () => void {
  const read = {};
  pending.set(read, { since: Date.now(), expire });
  if (sweeper === undefined) {
    sweeper = setInterval(sweep, limits.httpBodyDeadlineSweepMs);
    sweeper.unref();
  }
  return () => pending.delete(read);
}

export function bodyDeadlineMessage(): string {
  return `The request body did not arrive within ${limits.httpBodyDeadlineMs / 1000} s of its head; send it faster or in a smaller request`;
}
