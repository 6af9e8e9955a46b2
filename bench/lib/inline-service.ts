import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountStore } from '../../src/accounts/account-store.js';
import { lmdbPorts } from '../../src/accounts/lmdb-ports.js';
import { compileInputValidator } from '../../src/ops/framework/input-validation.js';
import type { AnyOp } from '../../src/contract/op.js';
import { loadEmbeddedDefault } from '../../src/registry/embedded-default.js';
import { createMemoryDirectory } from '../../src/registry/memory-directory.js';
import { Service, type CallIdentity } from '../../src/service/execute.js';

/**
 * The execute path in this process (authenticate, validation, gate, credits, the op) over a temporary LMDB
 * ledger and the embedded bank data, with no pool (every run inline) and an unlimited key: what the in-process
 * benches time. `use` gets the service and the caller's identity; the ledger is closed and removed after it.
 */
export async function withInlineService<T>(
  ops: readonly AnyOp[],
  use: (service: Service, identity: CallIdentity) => Promise<T>,
): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-bench-inline-'));
  const accounts = AccountStore.open(dataDir);
  try {
    const apiKey = accounts.createKey('unlimited', new Date(), 'bench').key;
    const service = new Service({
      state: lmdbPorts(accounts),
      data: { bank: createMemoryDirectory(loadEmbeddedDefault()) },
      runner: { runInPool: () => Promise.reject(new Error('inline only')) },
      poolThresholdRows: 1_000_000,
      validators: new Map(ops.map((op) => [op.name, compileInputValidator(op)])),
    });
    return await use(service, { apiKey, ip: '127.0.0.1' });
  } finally {
    await accounts.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
