// Long fuzz run: at least 100,000 requests per front (REST, then gRPC) against the service in its own process.
// Holds: zero 5xx, zero hangs, every error an Error object with request_id, every (operation, status, error code)
// answered listed by the OpenAPI document (test/helpers/contract-check.ts), and the service's RSS back within
// 10% of its level after a warm-up (both read after an idle: memoryAfterIdle). Bounded: FUZZ_PER_FRONT requests
// per front (default 100,000) and FUZZ_MAX_MINUTES per front (default 30; a run cut by the clock says so).
// 127.0.0.1 only. Run it under the machine lock: flock /tmp/ibanqa-machine.lock npm run bench:fuzz
// Usage: npm run bench:fuzz     Results: bench/results/fuzz-<date>.json
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlanId } from '../src/domain/plans/plans.js';
import { procMemory } from './lib/proc.js';
import { startIbanqa } from './lib/ibanqa-process.js';
import { runFuzz, type FuzzReport } from '../test/fuzz/harness.js';
import { contractBreaches } from '../test/helpers/contract-check.js';
import { readObservedStatuses } from '../src/transport/observed-statuses.js';

const perFront = Number(process.env.FUZZ_PER_FRONT ?? 100_000);
const maxMinutes = Number(process.env.FUZZ_MAX_MINUTES ?? 30);
const slice = 5_000;
/** No answer within this is a hang. The largest legitimate requests (a 10,000-row bulk dataset with profiles)
 *  take longer than the test's 5 s on the busy shared machine; they are listed as slow instead (FUZZ_SLOW_MS). */
const hangMs = Number(process.env.FUZZ_HANG_MS ?? 30_000);
const slowMs = Number(process.env.FUZZ_SLOW_MS ?? 5_000);

// The service records every kind of answer it sends; after the run they are compared with its contract.
const observedDir = mkdtempSync(join(tmpdir(), 'ibanqa-fuzz-observed-'));
const service = await startIbanqa({ IBANQA_OBSERVED_STATUSES_DIR: observedDir });
const keys = Object.fromEntries(
  [...service.child.stdout().matchAll(/^\s+(\w+)\s+(iq_\S+)/gm)].map((match) => [
    match[1],
    match[2],
  ]),
) as Record<PlanId, string>;
const target = {
  restBase: `http://127.0.0.1:${service.httpPort}/api/v1`,
  grpcAddress: `127.0.0.1:${service.grpcPort}`,
  keys,
};
const idleMs = Number(process.env.FUZZ_IDLE_MS ?? 30_000);

/**
 * The service's memory after `idleMs` without requests: VmRSS and its parts from /proc/<pid>/status, and the V8
 * heap from its own /metrics. No forced GC (the child has no --expose-gc and nothing would call it): the idle
 * lets V8's memory reducer run its mark-compact, which it starts a few seconds after allocation stops.
 */
async function memoryAfterIdle() {
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  const metrics = await (await fetch(`http://127.0.0.1:${service.httpPort}/metrics`)).text();
  const gauge = (name: string) =>
    Math.round(
      Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(metrics)?.[1] ?? NaN) /
        2 ** 20,
    );
  return {
    ...procMemory(service.child.pid),
    heapUsedMiB: gauge('nodejs_heap_size_used_bytes'),
    heapTotalMiB: gauge('nodejs_heap_size_total_bytes'),
    externalMiB: gauge('nodejs_external_memory_bytes'),
  };
}

async function front(only: 'rest' | 'grpc', seed: number) {
  const deadline = Date.now() + maxMinutes * 60_000;
  const total: FuzzReport = { rest: 0, grpc: 0, outcomes: {}, failures: [], slow: [] };
  const started = Date.now();
  for (let done = 0; done < perFront && Date.now() < deadline; done += slice) {
    const report = await runFuzz(target, {
      requests: Math.min(slice, perFront - done),
      seed: seed + done,
      only,
      hangMs,
      slowMs,
    });
    total.slow!.push(...(report.slow ?? []));
    total.rest += report.rest;
    total.grpc += report.grpc;
    total.failures.push(...report.failures.slice(0, 50));
    total.drawMsMax = Math.max(total.drawMsMax ?? 0, report.drawMsMax ?? 0);
    for (const [outcome, count] of Object.entries(report.outcomes))
      total.outcomes[outcome] = (total.outcomes[outcome] ?? 0) + count;
  }
  const sent = total.rest + total.grpc;
  return {
    only,
    sent,
    cutByClock: sent < perFront,
    seconds: Math.round((Date.now() - started) / 1000),
    failures: total.failures.length,
    drawMsMax: total.drawMsMax,
    slow: total.slow!.length,
    firstSlow: total.slow!.slice(0, 20),
    firstFailures: total.failures.slice(0, 20),
    outcomes: total.outcomes,
  };
}

try {
  await runFuzz(target, { requests: 2_000, seed: 1 }); // warm-up: code paths compiled, caches filled
  const memoryStart = await memoryAfterIdle();
  const rest = await front('rest', 1_000_000);
  const grpc = await front('grpc', 2_000_000);
  const memoryEnd = await memoryAfterIdle();
  const observed = readObservedStatuses(observedDir);
  const breaches = contractBreaches(observed);
  const result = {
    date: new Date().toISOString(),
    machine: "2 vCPUs, shared and busy with other engineers' work",
    bounds: { hangMs, slowMs },
    loadavg: loadavg(),
    memory: `after ${idleMs / 1000} s idle, before and after the run (the warm-up's 2,000 requests come first)`,
    memoryStart,
    memoryEnd,
    rssWithin10Percent: memoryEnd.rssMiB <= memoryStart.rssMiB * 1.1,
    rest,
    grpc,
    // Every distinct (operation, status, code) answered, checked against the OpenAPI document and the declarations.
    contract: { distinctAnswers: observed.length, breaches },
  };
  mkdirSync('bench/results', { recursive: true });
  const file = `bench/results/fuzz-${result.date.slice(0, 10)}.json`;
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n${file}\n`);
  const clean = rest.failures + grpc.failures === 0 && breaches.length === 0;
  process.exitCode = clean && result.rssWithin10Percent ? 0 : 1;
} finally {
  await service.stop();
  rmSync(observedDir, { recursive: true, force: true });
}
