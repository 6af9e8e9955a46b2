/**
 * The main thread's side of REST front threads (IBANQA_HTTP_THREADS > 1). Each front thread is a worker
 * with its own uWS app on the main app's host:port (uSockets sets SO_REUSEPORT, so the kernel spreads new
 * connections over every listening thread). Over one RPC link per thread the main thread serves:
 * - `authenticator`, `meter`, `keyless`, `idempotency`, `claims`, `watches`: its real state ports, so the
 *   single Meter on this thread still decides every reservation; `authenticator.resolve` answers a front thread's
 *   key cache from this thread's, and every key this thread's cache forgets or finds changed is posted to every
 *   front thread (`keys.forget`);
 * - `leases`: the ledger's lease operations, each reply with the balances the front thread's X-RateLimit headers
 *   read;
 * - `service.answer`: whole calls of ops that run on the main thread (statements, usage, watches, ...);
 * - `pool.run`: pool-sized runs, in this thread's piscina pool;
 * - `metrics.render`: a scrape summed over every thread.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { AppError } from '../../../errors.js';
import { isHttpOp, type HttpOp } from '../../../contract/op.js';
import { ops, opsByName } from '../../../ops/table.js';
import { servePorts, type ServedPorts } from '../../../ports/remote/serve-ports.js';
import type { LeaseLedger } from '../../../ports/credits-lease.js';
import type { KeyChanges, KeyResolver } from '../../../ports/key-resolver.js';
import { keyChangesPort } from '../../../ports/remote/wire.js';
import type { StatePorts } from '../../../ports/index.js';
import { RenderedBody } from '../../../render/body.js';
import type { Runner, Service } from '../../../service/execute.js';
import { frontThreadLimits } from '../../../limits.js';
import type { HttpMetrics, RequestCounts } from '../metrics.js';
import { portableAnswer, serviceCalls, type HttpAnswer } from '../server.js';
import { RpcLink, type Handlers } from './rpc.js';
import type { FrontThreadSettings, WirePoolResult, WirePoolTask } from './settings.js';

export interface FrontThreadsDeps {
  /** Front threads to start (IBANQA_HTTP_THREADS - 1: the main thread's app is the first front). */
  readonly count: number;
  readonly settings: Omit<FrontThreadSettings, 'entry' | 'thread'>;
  readonly state: StatePorts;
  /** The ledger's lease operations: each front thread reserves from leases of it, not through this thread. */
  readonly leases?: LeaseLedger;
  /** This thread's key cache: front threads' caches are answered from it and told what it forgets. */
  readonly keys: KeyResolver & KeyChanges;
  readonly service: Service;
  readonly runner: Runner;
  readonly metrics: HttpMetrics;
  readonly logger: Logger;
}

export interface FrontThreads {
  /** Tells every front thread what /readyz answers. */
  setReady(ready: boolean): void;
  /** Every front thread's request counters (a scrape sums them with the main thread's). */
  counts(): Promise<RequestCounts[]>;
  /** Reservations the main thread holds for front threads right now. */
  readonly pendingReservations: number;
  /** Calls front threads made to this thread so far, by `port.method`, summed over threads (tests, benchmarks). */
  callsAnswered(): Record<string, number>;
  /** Stops every front thread: each closes its listen socket, lets its calls settle, closes its connections and exits. */
  close(): Promise<void>;
}

const workerExtension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const bootstrap = new URL('../../../../workers/thread-bootstrap.mjs', import.meta.url);
const entry = new URL(`../../../../workers/front${workerExtension}`, import.meta.url);

const httpOpsByName = new Map(ops.filter(isHttpOp).map((op) => [op.name, op]));

/** Uploaded files cross as Uint8Array (structured clone drops Buffer): the ops read Buffers. */
function reviveFiles(raw: unknown): unknown {
  const files = (raw as { files?: unknown } | null)?.files;
  if (!Array.isArray(files)) return raw;
  const revived = files.map((file: { bytes?: unknown }) =>
    file.bytes instanceof Uint8Array && !Buffer.isBuffer(file.bytes)
      ? {
          ...file,
          bytes: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
        }
      : file,
  );
  return { ...(raw as object), files: revived };
}

function mainHandlers(
  deps: FrontThreadsDeps,
  served: ServedPorts,
  started: (port: number) => void,
): Handlers {
  const calls = serviceCalls(deps.service);
  return {
    ...served.handlers,
    service: {
      answer: (
        name: string,
        raw: unknown,
        identity: { apiKey: string | undefined; ip: string },
      ): Promise<HttpAnswer> => {
        const op: HttpOp | undefined = httpOpsByName.get(name);
        if (op === undefined) throw new AppError('internal', `unknown op ${name}`);
        return calls.answer(op, reviveFiles(raw), identity).then(portableAnswer);
      },
    },
    pool: {
      run: async (task: WirePoolTask): Promise<WirePoolResult> => {
        const op = opsByName.get(task.op);
        if (op === undefined) throw new AppError('internal', `unknown op ${task.op}`);
        const result = await deps.runner.runInPool({ ...task, op });
        return result instanceof RenderedBody
          ? { rendered: { format: result.format, body: result.body } }
          : { value: result };
      },
    },
    metrics: { render: () => deps.metrics.render() },
    front: { started },
  };
}

interface FrontThread {
  readonly worker: Worker;
  readonly link: RpcLink;
  readonly served: ServedPorts;
  readonly exited: Promise<void>;
}

function startOne(deps: FrontThreadsDeps, thread: string): Promise<FrontThread> {
  const served = servePorts(deps.state, deps.leases, deps.keys);
  const settings: FrontThreadSettings = { ...deps.settings, entry: fileURLToPath(entry), thread };
  const worker = new Worker(bootstrap, { workerData: settings });
  return new Promise((resolve, reject) => {
    let listening = false;
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `REST front thread ${thread} did not start within ${frontThreadLimits.startMs} ms`,
          ),
        ),
      frontThreadLimits.startMs,
    );
    const link = new RpcLink(
      worker,
      mainHandlers(deps, served, () => {
        listening = true;
        clearTimeout(timer);
        resolve({ worker, link, served, exited });
      }),
      (thrown, port, method) =>
        deps.logger.error(
          { err: thrown, thread, call: `${port}.${method}` },
          'internal error serving a front thread',
        ),
    );
    worker.on('error', (error) => {
      deps.logger.error({ err: error, thread }, 'REST front thread failed');
      if (!listening) reject(error);
    });
    const exited = new Promise<void>((done) => {
      worker.once('exit', (code) => {
        clearTimeout(timer);
        link.close(`REST front thread ${thread} exited`);
        // Whatever the thread still held is given back: a request that never answered never debits.
        void served.release(`REST front thread ${thread} exited`).finally(done);
        if (!listening)
          reject(
            new Error(`REST front thread ${thread} exited with code ${code} before it listened`),
          );
      });
    });
  });
}

export async function startFrontThreads(deps: FrontThreadsDeps): Promise<FrontThreads> {
  const threads: FrontThread[] = [];
  try {
    for (let index = 1; index <= deps.count; index++)
      threads.push(await startOne(deps, `front-${index}`));
  } catch (error) {
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
    throw error;
  }
  // A revoked or changed key is forgotten by every front thread now, not when its entry ages out.
  deps.keys.onChange((keyId) => {
    for (const thread of threads)
      thread.link.call(keyChangesPort, 'forget', [keyId]).catch(() => undefined);
  });
  return {
    setReady(ready) {
      for (const thread of threads)
        thread.link.call('front', 'ready', [ready]).catch(() => undefined);
    },
    counts: () =>
      Promise.all(threads.map((thread) => thread.link.call<RequestCounts>('metrics', 'counts'))),
    callsAnswered() {
      const sums: Record<string, number> = {};
      for (const thread of threads)
        for (const [name, count] of thread.link.answered) sums[name] = (sums[name] ?? 0) + count;
      return sums;
    },
    get pendingReservations() {
      return threads.reduce((sum, thread) => sum + thread.served.pending, 0);
    },
    async close() {
      await Promise.all(
        threads.map(async (thread) => {
          // Bounded: a thread that cannot answer (stuck in a loop) is terminated all the same.
          const stopped = thread.link.call('front', 'stop');
          const bound = new Promise<never>((_, reject) =>
            setTimeout(
              () => reject(new Error('no answer to stop')),
              frontThreadLimits.drainMs + 5_000,
            ).unref(),
          );
          await Promise.race([stopped, bound]).catch((error: unknown) =>
            deps.logger.warn({ err: error }, 'a REST front thread did not stop cleanly'),
          );
          await thread.worker.terminate();
          await thread.exited;
        }),
      );
    },
  };
}
