// Piscina imports this module before the thread reports ready, so the registry is loaded before task one.
// Failures return as data: Error subclasses lose their class and fields when structured-cloned (Node 20).
import { AppError, toErrorData } from '../src/errors.js';
import { opsByName } from '../src/ops/table.js';
import type { TaskRequest, TaskResult } from '../src/pool/task.js';
import { loadBankDirectory } from '../src/registry/load-directory.js';

const bank = loadBankDirectory();

export default function runTask(task: TaskRequest): TaskResult {
  const op = opsByName.get(task.op);
  if (op === undefined) return { ok: false, error: { code: 'internal', message: `unknown op ${task.op}`, details: {} } };
  try {
    const value = op.run(task.input as never, { requestKey: task.requestKey, caller: task.caller, bank, rowStart: task.rowStart ?? 0 });
    return { ok: true, value };
  } catch (thrown) {
    if (thrown instanceof AppError) return { ok: false, error: toErrorData(thrown) };
    throw thrown; // a bug: piscina rejects, the main thread answers 'internal' and logs it
  }
}
