import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BankDirectory } from '../../src/registry/bank-directory.js';
import { bankDirectoryOver, openServiceRegistry } from '../../src/registry/load-directory.js';

/** The service's bank directory, built in a throw-away data dir (first open imports the embedded default). */
export interface BenchDirectory {
  readonly directory: BankDirectory;
  readonly dataDir: string;
  close(): Promise<void>;
}

export async function openBenchDirectory(): Promise<BenchDirectory> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-bench-registry-'));
  const registry = await openServiceRegistry(dataDir);
  return {
    directory: bankDirectoryOver(registry),
    dataDir,
    async close() {
      // The directory reads an open environment; close it before removing its files.
      await registry.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
