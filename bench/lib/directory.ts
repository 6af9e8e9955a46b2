import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BankDirectory } from '../../src/registry/bank-directory.js';
import { loadBankDirectory } from '../../src/registry/load-directory.js';

/** The service's bank directory, built in a throw-away data dir (first open imports the embedded default). */
export interface BenchDirectory {
  readonly directory: BankDirectory;
  readonly dataDir: string;
  close(): Promise<void>;
}

interface Closable {
  readonly registry?: { close?: () => Promise<void> };
}

export function openBenchDirectory(): BenchDirectory {
  const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-bench-registry-'));
  const directory = loadBankDirectory(dataDir);
  return {
    directory,
    dataDir,
    async close() {
      // The LMDB-backed directory holds an open environment; close it before removing its files.
      await (directory as Closable).registry?.close?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
