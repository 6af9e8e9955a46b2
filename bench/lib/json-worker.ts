// Bench-only piscina worker: the same op run as workers/ops.ts, but the result leaves the thread as ONE
// JSON string (copied once) instead of row objects (structured-cloned field by field). It measures the
// alternative that bench/RESULTS.md §4 proposes; the service does not use this file.
import { opsByName } from '../../src/ops/table.js';
import type { TaskRequest } from '../../src/pool/task.js';
import { loadBankDirectory } from '../../src/registry/load-directory.js';

const bank = loadBankDirectory(); // reads the data dir from the pool's workerData, read-only

export default function runTaskAsJson(task: TaskRequest): string {
  const op = opsByName.get(task.op);
  if (op === undefined) throw new Error(`unknown op ${task.op}`);
  const value = op.run(task.input as never, { requestKey: task.requestKey, caller: task.caller, bank, rowStart: task.rowStart ?? 0 });
  return JSON.stringify(value);
}
