import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { defaultPoolThresholdRows } from '../src/config.js';
import { requestKeyOf } from '../src/domain/rng.js';
import { ibanBulkDataset } from '../src/ops/iban/bulk-dataset.js';
import { compileInputValidator } from '../src/ops/framework/input-validation.js';
import type { AnyOp, CallerView, RunContext } from '../src/ops/framework/op.js';
import { ContextFactory } from '../src/service/context.js';
import { Piscina } from 'piscina';
import { createPool, PoolRunner } from '../src/pool/pool.js';
import type { TaskRequest } from '../src/pool/task.js';
import type { WorkerSettings } from '../src/pool/worker-data.js';
import { openBenchDirectory } from './lib/directory.js';
import { round, writeResult } from './lib/results.js';

/** The batch sizes, in rows. */
export const poolBatchRows = [100, 1_000, 2_000, 5_000, 10_000] as const;
/** Rows per measured cell: about half a second of work each, so small batches get many repetitions. */
const rowsPerCell = 100_000;
const repetitionsMin = 10;
const repetitionsMax = 200;
/** Tasks before timing: spawns both workers, loads their registry, lets V8 optimise both paths. */
const warmupTasks = 8;
/** "The hop is cheap enough": pool round trip at most this much slower than running inline. */
const latencyOverheadMax = 0.25;
/** The pool's threads, sized as src/config.ts sizes them by default (at most 16). */
const threads = Math.min(availableParallelism(), 16);

export interface PoolCell {
  readonly rows: number;
  readonly repetitions: number;
  /** Inline: the event loop is blocked for the whole run. */
  readonly inlineMs: number;
  /** Pool, one task in flight: round trip as the caller sees it. */
  readonly poolLatencyMs: number;
  readonly poolOverheadMs: number;
  /** Pool, one task in flight: main-thread busy time per task (dispatch, structured clone of the result). */
  readonly poolMainThreadMs: number;
  /** structuredClone of one output on the main thread: what shipping rows as objects costs (both directions). */
  readonly structuredCloneMs: number;
  /** JSON.stringify of one output: the REST front pays this anyway; a string crosses threads as one copy. */
  readonly jsonStringifyMs: number;
  readonly inlineRowsPerSec: number;
  /** Pool with `threads` tasks in flight. */
  readonly poolPipelinedRowsPerSec: number;
  /** What REST pays inline: run + JSON.stringify on the main thread. */
  readonly inlineJsonMs: number;
  /** Alternative (bench/lib/json-worker.ts): the worker returns the JSON string; one task in flight. */
  readonly jsonPoolLatencyMs: number;
  readonly jsonPoolMainThreadMs: number;
  readonly inlineJsonRowsPerSec: number;
  readonly jsonPoolPipelinedRowsPerSec: number;
}

export interface PoolResult {
  readonly op: string;
  readonly input: string;
  readonly threads: number;
  readonly configuredThresholdRows: number;
  readonly loadAverageAtStart: readonly number[];
  readonly cells: readonly PoolCell[];
  /** Smallest batch from which on the pool round trip is within latencyOverheadMax of inline. */
  readonly latencyCrossoverRows: number | null;
  /** Smallest batch where the pipelined pool out-produces inline generation. */
  readonly throughputCrossoverRows: number | null;
  /** Smallest batch where the pool keeps the main thread busy for less than half the inline time. */
  readonly loopReliefCrossoverRows: number | null;
  /** The same three crossovers for the JSON-string worker against inline run + JSON.stringify. */
  readonly json: {
    readonly latencyCrossoverRows: number | null;
    readonly throughputCrossoverRows: number | null;
    readonly loopReliefCrossoverRows: number | null;
  };
}

const caller: CallerView = { keyId: 'bench', plan: 'unlimited', paid: true };
const requestKey = requestKeyOf('ibanqa-bench', 'pool-threshold');

/** One pool task of the op on `input` (the service's PoolRunner, or the bench JSON-string pool). */
type Submit = () => Promise<unknown>;

async function timePoolSequential(
  submit: Submit,
  repetitions: number,
): Promise<{ latencyMs: number; mainMs: number }> {
  const eluBefore = performance.eventLoopUtilization();
  const started = performance.now();
  for (let index = 0; index < repetitions; index++) await submit();
  const elapsed = performance.now() - started;
  const elu = performance.eventLoopUtilization(eluBefore);
  return { latencyMs: elapsed / repetitions, mainMs: elu.active / repetitions };
}

async function timePoolPipelined(submit: Submit, repetitions: number): Promise<number> {
  let next = 0;
  const lane = async () => {
    while (next < repetitions) {
      next++;
      await submit();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: threads }, lane));
  return (performance.now() - started) / repetitions;
}

/** Mean time of `work` over `repetitions` runs, in ms. */
function timeEach(repetitions: number, work: () => unknown): number {
  const started = performance.now();
  for (let index = 0; index < repetitions; index++) work();
  return (performance.now() - started) / repetitions;
}

/** Smallest measured batch from which on the condition holds for every larger batch too. */
export function crossover<C extends { readonly rows: number }>(
  cells: readonly C[],
  holds: (cell: C) => boolean,
): number | null {
  let from: number | null = null;
  for (let index = cells.length - 1; index >= 0 && holds(cells[index]!); index--)
    from = cells[index]!.rows;
  return from;
}

/** The hop is measured on warm threads: none may exit between cells (the service's idle release is not timed here). */
const warmPoolIdleMs = 60 * 60 * 1000;

/** Same options as src/pool/pool.ts createPool, with the bench worker that answers one JSON string. */
function createJsonPool(dataDir: string): Piscina {
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new Piscina({
    filename: new URL(`./lib/json-worker${extension}`, import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    maxQueue: threads * threads,
    concurrentTasksPerWorker: 1,
    idleTimeout: warmPoolIdleMs,
    workerData: {
      dataDir,
      usDirectoryFiles: [],
      ocrIdleMs: warmPoolIdleMs,
    } satisfies WorkerSettings,
  });
}

interface Rig {
  readonly op: AnyOp;
  readonly context: RunContext;
  readonly registryVersion: number;
  readonly runner: PoolRunner;
  readonly jsonPool: Piscina;
}

async function measureCell(
  rig: Rig,
  input: unknown,
  rows: number,
  repetitions: number,
): Promise<PoolCell> {
  const { op, context, runner, jsonPool } = rig;
  const submitRows: Submit = () =>
    runner.runInPool({
      op,
      input,
      caller,
      requestKey,
      rowStart: 0,
      registryVersion: rig.registryVersion,
      now: new Date(),
    });
  const jsonTask: TaskRequest = {
    op: op.name,
    input,
    caller,
    requestKey,
    rowStart: 0,
    registryVersion: rig.registryVersion,
    now: new Date().toISOString(),
  };
  const submitJson: Submit = () => jsonPool.run(jsonTask);
  const inlineMs = timeEach(repetitions, () => op.run(input as never, context));
  const sequential = await timePoolSequential(submitRows, repetitions);
  const pipelinedMs = await timePoolPipelined(submitRows, repetitions);
  const inlineJsonMs = timeEach(repetitions, () => JSON.stringify(op.run(input as never, context)));
  const jsonSequential = await timePoolSequential(submitJson, repetitions);
  const jsonPipelinedMs = await timePoolPipelined(submitJson, repetitions);
  const output = op.run(input as never, context);
  const rate = (ms: number) => Math.round(rows / (ms / 1000));
  return {
    rows,
    repetitions,
    inlineMs: round(inlineMs, 3),
    poolLatencyMs: round(sequential.latencyMs, 3),
    poolOverheadMs: round(sequential.latencyMs - inlineMs, 3),
    poolMainThreadMs: round(sequential.mainMs, 3),
    structuredCloneMs: round(
      timeEach(repetitions, () => structuredClone(output)),
      3,
    ),
    jsonStringifyMs: round(
      timeEach(repetitions, () => JSON.stringify(output)),
      3,
    ),
    inlineRowsPerSec: rate(inlineMs),
    poolPipelinedRowsPerSec: rate(pipelinedMs),
    inlineJsonMs: round(inlineJsonMs, 3),
    jsonPoolLatencyMs: round(jsonSequential.latencyMs, 3),
    jsonPoolMainThreadMs: round(jsonSequential.mainMs, 3),
    inlineJsonRowsPerSec: rate(inlineJsonMs),
    jsonPoolPipelinedRowsPerSec: rate(jsonPipelinedMs),
  };
}

async function warmUp(rig: Rig, input: unknown): Promise<void> {
  const task: TaskRequest = {
    op: rig.op.name,
    input,
    caller,
    requestKey,
    rowStart: 0,
    registryVersion: rig.registryVersion,
    now: new Date().toISOString(),
  };
  for (let index = 0; index < warmupTasks; index++) {
    rig.op.run(input as never, rig.context);
    await rig.runner.runInPool({
      op: rig.op,
      input,
      caller,
      requestKey,
      rowStart: 0,
      registryVersion: rig.registryVersion,
      now: new Date(),
    });
    await rig.jsonPool.run(task);
  }
}

export async function runPoolThreshold(
  log: (line: string) => void = console.log,
): Promise<PoolResult> {
  const loadAverageAtStart = loadavg().map((value) => round(value, 2));
  // The main thread builds the registry first; the workers then open the same data dir read-only.
  const bench = await openBenchDirectory();
  const op = ibanBulkDataset as unknown as AnyOp;
  const validate = compileInputValidator(op);
  const rig: Rig = {
    op,
    context: new ContextFactory({ bank: bench.directory }, () => new Date(), 'bench').contextFor(
      op,
      { requestKey, caller, rowStart: 0 },
    ),
    registryVersion: bench.directory.syncVersion(),
    runner: new PoolRunner(
      createPool({ threads, dataDir: bench.dataDir, usDirectoryFiles: [], idleMs: warmPoolIdleMs }),
    ),
    jsonPool: createJsonPool(bench.dataDir),
  };
  const cells: PoolCell[] = [];
  try {
    await warmUp(rig, validate({ country: 'DE', quantity: 1_000 }));
    for (const rows of poolBatchRows) {
      const repetitions = Math.min(
        repetitionsMax,
        Math.max(repetitionsMin, Math.round(rowsPerCell / rows)),
      );
      log(`pool: ${rows} rows x ${repetitions}`);
      cells.push(
        await measureCell(rig, validate({ country: 'DE', quantity: rows }), rows, repetitions),
      );
    }
  } finally {
    await rig.runner.close();
    await rig.jsonPool.destroy();
    await bench.close();
  }
  return summaryOf(op.name, loadAverageAtStart, cells);
}

function summaryOf(opName: string, loadAverageAtStart: number[], cells: PoolCell[]): PoolResult {
  return {
    op: opName,
    input:
      "{ country: 'DE', quantity: N } (include_bank_details defaults to true), caller plan unlimited",
    threads,
    configuredThresholdRows: defaultPoolThresholdRows,
    loadAverageAtStart,
    cells,
    latencyCrossoverRows: crossover(
      cells,
      (cell) => cell.poolOverheadMs <= cell.inlineMs * latencyOverheadMax,
    ),
    throughputCrossoverRows: crossover(
      cells,
      (cell) => cell.poolPipelinedRowsPerSec >= cell.inlineRowsPerSec,
    ),
    loopReliefCrossoverRows: crossover(cells, (cell) => cell.poolMainThreadMs < cell.inlineMs / 2),
    json: {
      latencyCrossoverRows: crossover(
        cells,
        (cell) =>
          cell.jsonPoolLatencyMs - cell.inlineJsonMs <= cell.inlineJsonMs * latencyOverheadMax,
      ),
      throughputCrossoverRows: crossover(
        cells,
        (cell) => cell.jsonPoolPipelinedRowsPerSec >= cell.inlineJsonRowsPerSec,
      ),
      loopReliefCrossoverRows: crossover(
        cells,
        (cell) => cell.jsonPoolMainThreadMs < cell.inlineJsonMs / 2,
      ),
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runPoolThreshold();
  console.log(JSON.stringify(result, null, 2));
  console.log(`wrote ${writeResult('pool-threshold', result)}`);
}
