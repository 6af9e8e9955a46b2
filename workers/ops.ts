// Piscina imports this module before the thread reports ready, so the registry is loaded before task one.
// Failures return as data: Error subclasses lose their class and fields when structured-cloned (Node 20).
import { AppError, toErrorData } from '../src/errors.js';
import { opsByName } from '../src/ops/table.js';
import { renderBody } from '../src/render/body.js';
import type { StatementTask, StatementTaskResult, TaskRequest, TaskResult } from '../src/pool/task.js';
import { analyzeUpload } from '../src/statements/analyze-upload.js';
import { loadBankDirectory } from '../src/registry/load-directory.js';
import { lazyRoutingDirectory, loadRoutingDirectory } from '../src/registry/routing-directory-loader.js';
import { RegistryStore } from '../src/registry/store/registry-store.js';
import { workerSettings } from '../src/pool/worker-data.js';

const bank = loadBankDirectory();
// Built on the first US routing task only; read-only view of the same registry and files as the main thread.
const routing = lazyRoutingDirectory(() => {
  const settings = workerSettings();
  return loadRoutingDirectory(settings.usDirectoryFiles, RegistryStore.open(settings.dataDir, { readOnly: true }));
});

export default async function runTask(task: TaskRequest | StatementTask): Promise<TaskResult | StatementTaskResult> {
  if ('kind' in task) return analyzeUpload(task, bank, routing);
  const op = opsByName.get(task.op);
  if (op === undefined) return { ok: false, error: { code: 'internal', message: `unknown op ${task.op}`, details: {} } };
  try {
    const value = op.run(task.input as never, { requestKey: task.requestKey, caller: task.caller, bank, rowStart: task.rowStart ?? 0, routing });
    if (task.render === undefined) return { ok: true, value };
    const { format, body } = await renderBody(op, value, task.render);
    return { ok: true, rendered: { format, body } };
  } catch (thrown) {
    if (thrown instanceof AppError) return { ok: false, error: toErrorData(thrown) };
    throw thrown; // a bug: piscina rejects, the main thread answers 'internal' and logs it
  }
}
