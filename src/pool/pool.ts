import { Piscina } from 'piscina';
import { AppError, fromErrorData } from '../errors.js';
import type { PoolTask, Runner } from '../service/execute.js';
import { RenderedBody } from '../render/body.js';
import type { StatementTask, StatementTaskResult, TaskRequest, TaskResult } from './task.js';
import type { WorkerSettings } from './worker-data.js';

export interface PoolOptions extends Omit<WorkerSettings, 'ocrIdleMs'> {
  /** Threads at most: started on demand, one per task waiting, up to this many. */
  readonly threads: number;
  /** A thread with no task for this long exits (the next pooled task starts one again), and a thread's OCR
   *  engine is released after as long without an image. */
  readonly idleMs: number;
}

/** Workers are TypeScript when we run under tsx and JavaScript if ever compiled: follow our own extension. */
const workerExtension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/**
 * A piscina pool with every option explicit (its defaults are an unbounded queue and half the cores started
 * at once). No thread runs until pooled work arrives: each one loads the whole op graph (about 100 MB resident,
 * bench/RESULTS.md "Memory"), and most requests run inline, so threads start on the first pooled task and exit
 * after `idleMs` without one. Queue: threads squared, piscina's own guidance; a full queue is answered 503
 * overloaded instead of piling up memory.
 */
export function createPool(options: PoolOptions): Piscina {
  return new Piscina({
    filename: new URL(`../../workers/ops${workerExtension}`, import.meta.url).href,
    minThreads: 0,
    maxThreads: options.threads,
    maxQueue: options.threads * options.threads,
    concurrentTasksPerWorker: 1,
    idleTimeout: options.idleMs,
    workerData: {
      dataDir: options.dataDir,
      usDirectoryFiles: options.usDirectoryFiles,
      ocrIdleMs: options.idleMs,
      ...(options.manifestKeys === undefined ? {} : { manifestKeys: options.manifestKeys }),
    } satisfies WorkerSettings,
  });
}

/** How a pool task ended: a result, an error the task answered (as data), or a throw (worker lost, stopped, a bug). */
export type PoolTaskOutcome = 'ok' | 'error' | 'failed';

/** Told of every task the pool settles (the service's /metrics). */
export interface PoolObserver {
  taskSettled(task: string, outcome: PoolTaskOutcome, seconds: number): void;
}

export class PoolRunner implements Runner {
  constructor(
    private readonly pool: Piscina,
    private readonly observer?: PoolObserver,
  ) {}

  /** Tasks waiting for a free worker. */
  get queueDepth(): number {
    return this.pool.queueSize;
  }

  /** Runs a task, timing it from hand-over to result (queue wait included) for the observer. */
  private async timed<T>(
    name: string,
    run: Promise<T>,
    failedAsData: (result: T) => boolean,
  ): Promise<T> {
    const startedMs = performance.now();
    let outcome: PoolTaskOutcome = 'failed';
    try {
      const result = await run;
      outcome = failedAsData(result) ? 'error' : 'ok';
      return result;
    } finally {
      this.observer?.taskSettled(name, outcome, (performance.now() - startedMs) / 1000);
    }
  }

  /**
   * piscina reports a full queue only as an untyped Error('Task queue is at limit'); checking the queue
   * ourselves before run() (no await in between, so nothing can fill it meanwhile) makes the refusal ours.
   */
  private assertRoom(): void {
    if (this.pool.queueSize >= this.pool.options.maxQueue)
      throw new AppError('overloaded', 'The worker pool is saturated; retry shortly');
  }

  async runInPool({
    op,
    input,
    caller,
    requestKey,
    rowStart,
    registryVersion,
    render,
    now,
  }: PoolTask): Promise<unknown> {
    const task: TaskRequest = {
      op: op.name,
      input,
      caller,
      requestKey,
      rowStart,
      registryVersion,
      now: now.toISOString(),
      ...(render === undefined ? {} : { render }),
    };
    this.assertRoom();
    const result = await this.timed(
      op.name,
      this.pool.run(task) as Promise<TaskResult>,
      (settled) => !settled.ok,
    );
    if (!result.ok) throw fromErrorData(result.error);
    return 'rendered' in result
      ? new RenderedBody(result.rendered.format, result.rendered.body)
      : result.value;
  }

  /** A statement analysis, stopped by `signal` (the time bound): piscina then ends the worker thread, OCR and all. */
  runStatementAnalysis(task: StatementTask, signal: AbortSignal): Promise<StatementTaskResult> {
    return this.timed(
      task.kind,
      this.pool.run(task, { signal }) as Promise<StatementTaskResult>,
      (settled) => !settled.ok,
    );
  }

  /** Threads running now (starting ones included): none until pooled work arrives, none again once idle. */
  get threads(): number {
    return this.pool.threads.length;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
