/**
 * A small request/reply protocol over one MessagePort (a Worker, or a worker's parentPort), usable from
 * both ends: `call(port, method, args)` posts `{ id, port, method, args }` and resolves on the reply with
 * the same id; the other end runs its handler of `port.method` and answers with the value or the failure.
 * Failures cross as data (structured clone drops an Error subclass's class and fields): an AppError as
 * its ErrorData, anything else as 'internal', whose text stays on the side that failed.
 */
import { AppError, fromErrorData, toErrorData, type ErrorData } from '../../../errors.js';

/** The end of a channel this link talks over: Worker and MessagePort both fit. */
export interface Channel {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

export type Handler = (...args: never[]) => unknown;
/** Handlers by port name and method name. */
export type Handlers = Readonly<Record<string, Readonly<Record<string, Handler>>>>;

interface CallMessage {
  readonly rpc: 'call';
  readonly id: number;
  readonly port: string;
  readonly method: string;
  readonly args: readonly unknown[];
}

type ReplyMessage =
  | { readonly rpc: 'reply'; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly rpc: 'reply'; readonly id: number; readonly ok: false; readonly error: ErrorData };

/** A failure that was not an AppError: the receiving side sees 'internal' and the failing side logs the cause. */
function errorDataOf(thrown: unknown, onBug: (thrown: unknown) => void): ErrorData {
  if (thrown instanceof AppError) return toErrorData(thrown);
  onBug(thrown);
  return { code: 'internal', message: 'internal error', details: {} };
}

export class RpcLink {
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: unknown) => void }
  >();
  private closedWith: AppError | undefined;
  /** Calls this end answered, by `port.method` (tests and benchmarks count what crosses per request). */
  readonly answered = new Map<string, number>();

  constructor(
    private readonly channel: Channel,
    private readonly handlers: Handlers,
    /** Hears a handler's failure that was a bug (not an AppError); the caller gets 'internal'. */
    private readonly onBug: (thrown: unknown, port: string, method: string) => void,
  ) {
    channel.on('message', (message) => this.receive(message));
  }

  /** Calls the other end's `port.method`; rejects with the AppError it failed with. */
  call<T>(port: string, method: string, args: readonly unknown[] = []): Promise<T> {
    if (this.closedWith !== undefined) return Promise.reject(this.closedWith);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.channel.postMessage({ rpc: 'call', id, port, method, args } satisfies CallMessage);
    });
  }

  /** The other end is gone (its thread exited): every call waiting for it, and every later one, fails. */
  close(reason: string): void {
    this.closedWith = new AppError('unavailable', reason);
    for (const { reject } of this.waiting.values()) reject(this.closedWith);
    this.waiting.clear();
  }

  private receive(message: unknown): void {
    const kind = (message as { rpc?: unknown } | null)?.rpc;
    if (kind === 'call') void this.answer(message as CallMessage);
    else if (kind === 'reply') this.settle(message as ReplyMessage);
  }

  private settle(reply: ReplyMessage): void {
    const waiter = this.waiting.get(reply.id);
    if (waiter === undefined) return;
    this.waiting.delete(reply.id);
    if (reply.ok) waiter.resolve(reply.value);
    else waiter.reject(fromErrorData(reply.error));
  }

  private async answer({ id, port, method, args }: CallMessage): Promise<void> {
    const name = `${port}.${method}`;
    this.answered.set(name, (this.answered.get(name) ?? 0) + 1);
    let reply: ReplyMessage;
    try {
      const handler = this.handlers[port]?.[method];
      if (handler === undefined) throw new Error(`no handler for ${port}.${method}`);
      reply = {
        rpc: 'reply',
        id,
        ok: true,
        value: await (handler as (...a: readonly unknown[]) => unknown)(...args),
      };
    } catch (thrown) {
      reply = {
        rpc: 'reply',
        id,
        ok: false,
        error: errorDataOf(thrown, (bug) => this.onBug(bug, port, method)),
      };
    }
    this.channel.postMessage(reply);
  }
}
