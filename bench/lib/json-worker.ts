// Bench-only piscina worker: the same op run as workers/ops.ts, but the result leaves the thread as ONE
// JSON string (copied once) instead of row objects (structured-cloned field by field). It measures the
// alternative that bench/RESULTS.md §4 proposes; the service does not use this file.
import { opsByName } from '../../src/ops/table.js';
import type { TaskRequest } from '../../src/pool/task.js';
import { workerSettings } from '../../src/pool/worker-data.js';
import { loadBankDirectory } from '../../src/registry/load-directory.js';
import { ContextFactory } from '../../src/service/context.js';

const bank = loadBankDirectory(workerSettings().dataDir); // the pool's data dir, read-only
const contexts = new ContextFactory({ bank }, () => new Date(), 'bench worker');

export default async function runTaskAsJson(task: TaskRequest): Promise<string> {
  const op = opsByName.get(task.op);
  if (op === undefined) throw new Error(`unknown op ${task.op}`);
  const value = await op.run(
    task.input,
    contexts.contextFor(op, {
      requestKey: task.requestKey,
      caller: task.caller,
      rowStart: task.rowStart ?? 0,
    }),
  );
  return JSON.stringify(value);
}
