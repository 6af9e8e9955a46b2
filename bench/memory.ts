/**
 * `npm run bench:memory`: the service's resident memory against its budget. The real service runs as a child
 * process (src/main.ts under tsx, as `npm start` runs it) and its /proc/<pid>/status is read:
 *   1. idle after a first start (a fresh data directory: the embedded registry is imported),
 *   2. idle after a restart on that directory (what a service looks like most of its life),
 *   3. during 64 connections of POST /validate (100 IBANs) and POST /generate (100 rows) with a paid key, while
 *      10,000-row POST /bulk-dataset requests keep the pool busy (so its threads start and hold their memory),
 *   4. after the pool's idle time (IBANQA_POOL_IDLE_MS, shortened here so the bench stays bounded).
 * The budget (memoryTargets) lives here, never in a timed test. Bounded: about 2 minutes on a busy machine; all
 * traffic on 127.0.0.1; every server it starts is stopped. Writes bench/results/memory.json and its RESULTS.md
 * section.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { spawnTs, waitForOutput, type Child } from './lib/child.js';
import { freePort, procMemory, procThreads, type ProcMemory } from './lib/proc.js';
import { resultsMdPath } from './lib/report.js';
import { median, writeResult } from './lib/results.js';
import { writeSection } from './lib/sections.js';

/** The budget: resident MiB of the whole process (VmRSS), idle after start and at the peak of the load. */
export const memoryTargets = { idleMiB: 300, loadedMiB: 500 } as const;

export const memorySettings = {
  connections: 64,
  loadSeconds: 10,
  /** V8 and the allocator hand start-up and load garbage back over several seconds; read after that. */
  settleMs: 10_000,
  /** The service's idle release, shortened from its 60 s default so phase 4 does not wait a minute. */
  poolIdleMs: 5_000,
  bulkRows: 10_000,
  bulkInFlight: 2,
  sampleEveryMs: 250,
} as const;

/** One reading of the service process: memory by kind and OS threads (each pool or OCR thread adds one). */
export interface Reading extends ProcMemory {
  readonly threads: number;
}

function read(pid: number): Reading {
  return { ...procMemory(pid), threads: procThreads(pid) };
}

interface Service {
  readonly child: Child;
  readonly base: string;
  readonly key: string;
}

/** src/main.ts on free loopback ports; the paid key comes from the first start's demo keys. */
async function startService(dataDir: string, key?: string): Promise<Service> {
  const httpPort = await freePort();
  const child = spawnTs('src/main.ts', [], {
    IBANQA_DATA_DIR: dataDir,
    IBANQA_HOST: '127.0.0.1',
    IBANQA_PORT: String(httpPort),
    IBANQA_GRPC_PORT: String(await freePort()),
    IBANQA_LOG_LEVEL: 'warn',
    IBANQA_POOL_IDLE_MS: String(memorySettings.poolIdleMs),
  });
  try {
    await waitForOutput(child, /^ibanqa: REST /m);
    const demoKey = /^\s+unlimited\s+(iq_\S+)/m.exec(child.stdout())?.[1];
    const paid = key ?? demoKey;
    if (paid === undefined)
      throw new Error(`no demo key printed on a first start:\n${child.stdout()}`);
    return { child, base: `http://127.0.0.1:${httpPort}/api/v1`, key: paid };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

async function post(service: Service, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${service.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': service.key },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  return response.json();
}

/** A validate body of 100 IBANs the service generated itself (real bank codes), 20 from each of five countries. */
async function validateBody(service: Service): Promise<string> {
  const ibans: string[] = [];
  for (const country of ['DE', 'FR', 'GB', 'NL', 'ES']) {
    const rows = (await post(service, '/generate', {
      country,
      quantity: 20,
      seed: 'memory-bench',
    })) as { iban: string }[];
    ibans.push(...rows.map((row) => row.iban));
  }
  return JSON.stringify({ ibans });
}

/** Samples the process every sampleEveryMs while `work` runs. */
async function sampled<T>(
  pid: number,
  work: Promise<T>,
): Promise<{ value: T; samples: Reading[] }> {
  const samples: Reading[] = [];
  let done = false;
  const finished = work.finally(() => {
    done = true;
  });
  while (!done) {
    samples.push(read(pid));
    await Promise.race([sleep(memorySettings.sampleEveryMs), finished.catch(() => undefined)]);
  }
  return { value: await finished, samples };
}

export interface LoadPhase {
  readonly requests: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly reqPerSec: number;
  readonly bulkRequests: number;
  /** Statuses of bulk requests that did not answer 200 (none expected). */
  readonly bulkFailed: readonly number[];
  readonly peak: Reading;
  readonly medianRssMiB: number;
  readonly samples: number;
  /** VmHWM after the phase: the process's peak since it started, between two samples included. */
  readonly peakSinceStartMiB: number;
}

/** `bulkInFlight` pooled bulk datasets at a time until `stop` is set: how many answered, and the statuses of those that failed. */
async function keepPoolBusy(
  service: Service,
  stop: { done: boolean },
): Promise<{ completed: number; failed: number[] }> {
  let completed = 0;
  const failed: number[] = [];
  const lane = async () => {
    while (!stop.done) {
      // A refused connection (the service gone) counts as status 0 and ends the lane; the caller reports it.
      const status = await fetch(`${service.base}/bulk-dataset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': service.key },
        body: JSON.stringify({ country: 'DE', quantity: memorySettings.bulkRows }),
      }).then(
        async (response) => (await response.arrayBuffer(), response.status),
        () => 0,
      );
      if (status === 200) completed++;
      else failed.push(status);
      if (status === 0) return;
    }
  };
  await Promise.all(Array.from({ length: memorySettings.bulkInFlight }, lane));
  return { completed, failed };
}

/** 64 connections of /validate and /generate for loadSeconds; with `pooled`, bulk datasets keep the pool busy too. */
async function loadPhase(service: Service, pooled: boolean): Promise<LoadPhase> {
  const validate = await validateBody(service);
  const generate = JSON.stringify({ country: 'DE', quantity: 100, seed: 'memory-bench' });
  const headers = { 'content-type': 'application/json', 'x-api-key': service.key };
  const stop = { done: false };
  const clients = async () => {
    const bulk = pooled
      ? keepPoolBusy(service, stop)
      : Promise.resolve({ completed: 0, failed: [] });
    // autocannon's instance is a thenable, not a Promise: adopt it.
    const result = await Promise.resolve(
      autocannon({
        url: service.base.replace(/\/api\/v1$/, ''),
        connections: memorySettings.connections,
        duration: memorySettings.loadSeconds,
        requests: [
          { method: 'POST', path: '/api/v1/validate', headers, body: validate },
          { method: 'POST', path: '/api/v1/generate', headers, body: generate },
        ],
      }),
    );
    stop.done = true;
    return { result, bulk: await bulk };
  };
  // Sampled until the last bulk dataset has answered too: its answer is the largest thing the service holds.
  const { value, samples } = await sampled(service.child.pid, clients());
  const { result, bulk } = value;
  const peak = samples.reduce((top, sample) => (sample.rssMiB > top.rssMiB ? sample : top));
  const requests = result['2xx'] + result.non2xx;
  return {
    requests,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    reqPerSec: Math.round(requests / (result.duration || memorySettings.loadSeconds)),
    bulkRequests: bulk.completed,
    bulkFailed: bulk.failed,
    peak,
    medianRssMiB: median(samples.map((sample) => sample.rssMiB)),
    samples: samples.length,
    peakSinceStartMiB: read(service.child.pid).hwmMiB,
  };
}

export interface MemoryResult {
  readonly settings: typeof memorySettings;
  readonly targets: typeof memoryTargets;
  readonly loadAverage: { readonly atStart: readonly number[]; readonly atEnd: readonly number[] };
  readonly idleFirstStart: Reading;
  readonly idleRestart: Reading;
  /** The issue's load: 64 connections of /validate and /generate only (all inline: no pool thread starts). */
  readonly loaded: LoadPhase;
  /** The same load while bulk datasets run in the pool (its threads start and hold their memory). */
  readonly loadedPooled: LoadPhase;
  readonly afterIdle: Reading;
}

export async function runMemory(log: (line: string) => void): Promise<MemoryResult> {
  const atStart = loadavg().map((value) => Math.round(value * 100) / 100);
  const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-memory-'));
  try {
    const first = await startService(dataDir);
    await sleep(memorySettings.settleMs);
    const idleFirstStart = read(first.child.pid);
    log(`memory: idle after a first start ${JSON.stringify(idleFirstStart)}`);
    await first.child.stop();
    const service = await startService(dataDir, first.key);
    try {
      await sleep(memorySettings.settleMs);
      const idleRestart = read(service.child.pid);
      log(`memory: idle after a restart ${JSON.stringify(idleRestart)}`);
      const loaded = await loadPhase(service, false);
      log(`memory: loaded ${JSON.stringify(loaded)}`);
      await sleep(memorySettings.settleMs);
      const loadedPooled = await loadPhase(service, true);
      log(`memory: loaded, pool busy ${JSON.stringify(loadedPooled)}`);
      if (loaded.non2xx + loadedPooled.non2xx + loadedPooled.bulkFailed.length > 0)
        log(`memory: failures; service stderr:\n${service.child.stderr().slice(-4000)}`);
      await sleep(memorySettings.poolIdleMs + memorySettings.settleMs);
      const afterIdle = read(service.child.pid);
      log(`memory: after idle ${JSON.stringify(afterIdle)}`);
      const atEnd = loadavg().map((value) => Math.round(value * 100) / 100);
      const loadAverage = { atStart, atEnd };
      const settings = memorySettings;
      return {
        settings,
        targets: memoryTargets,
        loadAverage,
        idleFirstStart,
        idleRestart,
        loaded,
        loadedPooled,
        afterIdle,
      };
    } finally {
      await service.child.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const verdict = (value: number, target: number) =>
  value <= target ? `within ${target}` : `**over ${target}**`;

function row(phase: string, reading: Reading, target: number | null): string {
  return `| ${phase} | ${reading.rssMiB} | ${reading.anonMiB} | ${reading.fileMiB} | ${reading.threads} | ${target === null ? '' : verdict(reading.rssMiB, target)} |`;
}

function served(name: string, phase: LoadPhase): string {
  const bulk =
    phase.bulkRequests + phase.bulkFailed.length === 0
      ? ''
      : `, ${phase.bulkRequests} pooled bulk datasets answered 200${phase.bulkFailed.length === 0 ? '' : ` and ${phase.bulkFailed.length} did not (${phase.bulkFailed.join(', ')})`}`;
  return (
    `- ${name}: ${phase.requests.toLocaleString('en-US')} requests (${phase.reqPerSec}/s), ${phase.non2xx} non-2xx, ` +
    `${phase.errors} errors${bulk}; median VmRSS ${phase.medianRssMiB} MiB over ${phase.samples} samples, ` +
    `VmHWM ${phase.peakSinceStartMiB} MiB after it (the peak since start, between samples included).`
  );
}

export function memorySection(result: MemoryResult): string {
  const { settings, loaded, loadedPooled, targets } = result;
  return [
    '## Memory budget: resident memory idle, under load and after idle (bench/memory.ts)',
    '',
    `\`npm run bench:memory\`: the service as its own process (src/main.ts under tsx, as \`npm start\`); VmRSS, RssAnon, ` +
      `RssFile and Threads from /proc/<pid>/status, MiB, read ${settings.settleMs / 1000} s after start or load (no forced GC). ` +
      `Load: ${settings.connections} autocannon connections for ${settings.loadSeconds} s alternating POST /validate (100 IBANs) ` +
      'and POST /generate (100 rows) with a paid key (all inline: below the pool threshold), then the same while ' +
      `${settings.bulkInFlight} POST /bulk-dataset of ${settings.bulkRows.toLocaleString('en-US')} rows at a time run in the pool. ` +
      `IBANQA_POOL_IDLE_MS=${settings.poolIdleMs} (default 60,000) so the after-idle reading comes ` +
      `${(settings.poolIdleMs + settings.settleMs) / 1000} s after the load. Load average ${result.loadAverage.atStart.join(' / ')} ` +
      `at the start, ${result.loadAverage.atEnd.join(' / ')} at the end (2 cores shared with other work).`,
    '',
    '| phase | VmRSS | RssAnon | RssFile | OS threads | target |',
    '| --- | --- | --- | --- | --- | --- |',
    row(
      'idle, first start (imports the embedded registry)',
      result.idleFirstStart,
      targets.idleMiB,
    ),
    row('idle, restart on the same data directory', result.idleRestart, targets.idleMiB),
    row('64 clients /validate + /generate: peak sample', loaded.peak, targets.loadedMiB),
    row(
      'the same with bulk datasets in the pool: peak sample',
      loadedPooled.peak,
      targets.loadedMiB,
    ),
    row('after the idle release', result.afterIdle, targets.idleMiB),
    '',
    served('Load', loaded),
    served('Load with the pool busy', loadedPooled),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runMemory((line) => console.log(line));
  console.log(`-> ${writeResult('memory', result)}`);
  writeSection(resultsMdPath, 'memory', memorySection(result));
}
