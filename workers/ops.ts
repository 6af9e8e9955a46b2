// Piscina imports this module before the thread reports ready, so the registry is loaded before task one.
// Failures return as data: Error subclasses lose their class and fields when structured-cloned (Node 20).
import { AppError, toErrorData } from '../src/errors.js';
import { opsByName } from '../src/ops/table.js';
import { renderBody } from '../src/render/body.js';
import type { TaskRequest, TaskResult } from '../src/pool/task.js';
import type { ManifestKeys } from '../src/domain/manifest/signing.js';
import type { StatementTask, StatementTaskResult } from '../src/pool/task.js';
import { analyzeUpload, configureOcr } from '../src/ops/statements/analyze-upload.js';
import { loadBankDirectory } from '../src/registry/load-directory.js';
import {
  lazyRoutingDirectory,
  loadRoutingDirectory,
} from '../src/registry/routing-directory-loader.js';
import { RegistryStore } from '../src/registry/store/registry-store.js';
import { registryIndexOf, type RegistryIndex } from '../src/registry/registry-index.js';
import { workerSettings } from '../src/pool/worker-data.js';
import { ContextFactory } from '../src/service/context.js';
import type { RunContext } from '../src/contract/capabilities.js';

const bank = loadBankDirectory(workerSettings().dataDir);
let registryHandle: RegistryStore | undefined;
const registry = (): RegistryStore =>
  (registryHandle ??= RegistryStore.openReader(workerSettings().dataDir));
let index: RegistryIndex | undefined;
const registryIndex = (): RegistryIndex => (index ??= registryIndexOf(registry()));
// Built on the first US routing task only; read-only view of the same registry and files as the main thread.
const routing = lazyRoutingDirectory(() =>
  loadRoutingDirectory(workerSettings().usDirectoryFiles, registry()),
);
/**
 * A worker has no clock of its own: each task carries the main thread's reading (TaskRequest.now), so a pinned
 * clock reaches pooled ops too and a request answers with one time whichever thread runs it. The factory's clock
 * is never read: every context gets its task's time (timedContext).
 */
function untimedClock(): Date {
  throw new Error('a pool worker reads time from its task, not from a clock of its own');
}

/** The op's context with `now` reading the time the main thread sent with the task. */
function timedContext(context: RunContext, now: string): RunContext {
  const at = Date.parse(now);
  if (Number.isNaN(at)) throw new AppError('internal', `task time "${now}" is not a time`);
  return Object.defineProperty(context, 'now', { value: () => new Date(at) });
}

/** A worker has the read-only capabilities only; an op needing any other fails loudly (ContextFactory). */
const contexts = new ContextFactory(
  {
    bank,
    routing,
    get manifestKeys() {
      return workerManifestKeys() ?? null;
    },
    get registry() {
      return registry();
    },
    get registryIndex() {
      return registryIndex();
    },
  },
  untimedClock,
  'pool worker',
);

/** A worker answers only from the registry version the main thread dispatched the task on. */
function assertRegistryVersion(expected: number): void {
  const version = bank.syncVersion();
  if (version !== expected) {
    throw new AppError(
      'unavailable',
      `The registry changed while this request was dispatched (version ${expected} -> ${version}); retry it`,
    );
  }
}

// Loaded by the main thread at start and handed over as worker data; read on the first task that runs.
let manifestKeysRead = false;
let manifestKeys: ManifestKeys | undefined;
function workerManifestKeys(): ManifestKeys | undefined {
  if (!manifestKeysRead) {
    manifestKeys = workerSettings().manifestKeys;
    manifestKeysRead = true;
  }
  return manifestKeys;
}

/** The OCR engine of a statement analysis is released after the pool's idle time (set on the first statement). */
function analyzeStatement(task: StatementTask): Promise<StatementTaskResult> {
  configureOcr({ idleMs: workerSettings().ocrIdleMs });
  return analyzeUpload(task, bank, routing);
}

export default async function runTask(
  task: TaskRequest | StatementTask,
): Promise<TaskResult | StatementTaskResult> {
  if ('kind' in task) return analyzeStatement(task);
  const op = opsByName.get(task.op);
  if (op === undefined)
    return {
      ok: false,
      error: { code: 'internal', message: `unknown op ${task.op}`, details: {} },
    };
  try {
    assertRegistryVersion(task.registryVersion);
    const context = timedContext(
      contexts.contextFor(op, {
        requestKey: task.requestKey,
        caller: task.caller,
        rowStart: task.rowStart ?? 0,
      }),
      task.now,
    );
    // An op that writes its own JSON does so here too: the bytes are copied out of the reused answer buffer.
    if (task.render === 'json' && op.runJson !== undefined) {
      const answer = await op.runJson(task.input, context);
      return { ok: true, rendered: { format: 'json', body: Buffer.from(answer.jsonView()) } };
    }
    const value = await op.run(task.input, context);
    if (task.render === undefined) return { ok: true, value };
    const { format, body } = await renderBody(op, value, task.render);
    return { ok: true, rendered: { format, body } };
  } catch (thrown) {
    if (thrown instanceof AppError) return { ok: false, error: toErrorData(thrown) };
    throw thrown; // a bug: piscina rejects, the main thread answers 'internal' and logs it
  }
}
