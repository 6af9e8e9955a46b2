import { Piscina } from 'piscina';
import { AppError, fromErrorData } from '../errors.js';
import type { PoolTask, Runner } from '../service/execute.js';
import { RenderedBody } from '../render/body.js';
import type { StatementTask, StatementTaskResult, TaskRequest, TaskResult } from './task.js';
import type { WorkerSettings } from './worker-data.js';

export interface PoolOptions extends WorkerSettings {
  readonly threads: number;
}

/** Workers are TypeScript when we run under tsx and JavaScript if ever compiled: follow our own extension. */
const workerExtension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/**
 * A fixed piscina pool with every option explicit (its defaults are an unbounded queue and workers that
 * exit when idle and would re-open the registry). Queue: threads squared, piscina's own guidance; a full
 * queue is answered 503 overloaded instead of piling up memory.
 */
export function createPool(options: PoolOptions): Piscina {
  return new Piscina({
    filename: new URL(`../../workers/ops${workerExtension}`, import.meta.url).href,
    minThreads: options.threads,
    maxThreads: options.threads,
    maxQueue: options.threads * options.threads,
    concurrentTasksPerWorker: 1,
    idleTimeout: 60 * 60 * 1000,
    workerData: {
      dataDir: options.dataDir,
      usDirectoryFiles: options.usDirectoryFiles,
      ...(options.manifestKeys === undefined ? {} : { manifestKeys: options.manifestKeys }),
    } satisfies WorkerSettings,
  });
}

export class PoolRunner implements Runner {
  constructor(private readonly pool: Piscina) {}

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
  }: PoolTask): Promise<unknown> {
    const task: TaskRequest = {
      op: op.name,
      input,
      caller,
      requestKey,
      rowStart,
      registryVersion,
      ...(render === undefined ? {} : { render }),
    };
    this.assertRoom();
    const result = (await this.pool.run(task)) as TaskResult;
    if (!result.ok) throw fromErrorData(result.error);
    return 'rendered' in result
      ? new RenderedBody(result.rendered.format, result.rendered.body)
      : result.value;
  }

  /** A statement analysis, stopped by `signal` (the time bound): piscina then ends the worker thread, OCR and all. */
  runStatementAnalysis(task: StatementTask, signal: AbortSignal): Promise<StatementTaskResult> {
    return this.pool.run(task, { signal }) as Promise<StatementTaskResult>;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
