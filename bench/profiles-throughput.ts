/**
 * In-process throughput of the profile engine on the execute path (authenticate, validation, gate, credits,
 * the op): POST /profile one request at a time (DE and Random alternating) and a bulk dataset of 10,000 DE
 * rows with include_profiles, inline (no pool). A quick before/after figure for engine changes; the full
 * latency bench over HTTP is profiles.bench.ts.
 *
 *   node --import tsx bench/profiles-throughput.ts        (npm run bench:profiles-throughput)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountStore } from '../src/accounts/account-store.js';
import { lmdbPorts } from '../src/accounts/lmdb-ports.js';
import { compileInputValidator } from '../src/ops/framework/input-validation.js';
import type { AnyOp } from '../src/ops/framework/op.js';
import { ibanBulkDataset } from '../src/ops/iban/bulk-dataset.js';
import { profileGenerate } from '../src/ops/profiles/profile.js';
import { loadEmbeddedDefault } from '../src/registry/embedded-default.js';
import { createMemoryDirectory } from '../src/registry/memory-directory.js';
import { Service } from '../src/service/execute.js';

const profileRuns = 2_000;
const warmUpRuns = 300;
const bulkRows = 10_000;
const bulkRuns = 3;

const bulkOp = ibanBulkDataset as unknown as AnyOp;
const profileOp = profileGenerate as unknown as AnyOp;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-bench-profiles-tp-'));
  const accounts = AccountStore.open(dataDir);
  try {
    const apiKey = accounts.createKey('unlimited', new Date(), 'bench').key;
    const service = new Service({
      state: lmdbPorts(accounts),
      data: { bank: createMemoryDirectory(loadEmbeddedDefault()) },
      runner: { runInPool: () => Promise.reject(new Error('inline only')) },
      poolThresholdRows: 1_000_000,
      validators: new Map([bulkOp, profileOp].map((op) => [op.name, compileInputValidator(op)])),
    });
    const identity = { apiKey, ip: '127.0.0.1' };
    const profile = async (run: number) =>
      JSON.stringify(
        (await service.execute(profileOp, { country: run % 2 === 0 ? 'DE' : 'Random' }, identity))
          .output,
      );
    for (let run = 0; run < warmUpRuns; run++) await profile(run);
    const started = performance.now();
    for (let run = 0; run < profileRuns; run++) await profile(run);
    const profileMs = performance.now() - started;
    const bulk: number[] = [];
    for (let run = 0; run <= bulkRuns; run++) {
      const from = performance.now();
      const outcome = await service.execute(
        bulkOp,
        { country: 'DE', quantity: bulkRows, include_profiles: true },
        identity,
      );
      JSON.stringify(outcome.output);
      if (run > 0) bulk.push(performance.now() - from);
    }
    const bulkMs = median(bulk);
    console.log(
      JSON.stringify({
        profilesPerSecond: Math.round((profileRuns / profileMs) * 1000),
        profileMeanMs: Number((profileMs / profileRuns).toFixed(3)),
        bulk10kWithProfilesMedianMs: Math.round(bulkMs),
        bulkRowsPerSecond: Math.round((bulkRows / bulkMs) * 1000),
        loadAverage: loadavg().map((load) => Number(load.toFixed(2))),
      }),
    );
  } finally {
    await accounts.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
