/**
 * REST front threads (IBANQA_HTTP_THREADS) 1 against 2: the same service process, the same validate bodies as
 * bench/rest-load.ts (100 IBANs, the validate maximum) and 1-IBAN bodies (where the per-request cost, and so the
 * state round trips to the main thread, weigh most), wrk -t1 -c32 for 10 s after a 2 s warm-up. Each setting is
 * started twice, alternating (1, 2, 1, 2), so a burst of load from others on the shared machine shows as a
 * disagreement between the two runs instead of as a difference between settings. Run under
 * `flock /tmp/ibanqa-machine.lock`.
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { noRegistryContext } from '../src/domain/iban/national/types.js';
import { runWrk, type PostTarget } from './lib/http-load.js';
import { chunks, mixedIbans } from './lib/iban-list.js';
import { startIbanqa } from './lib/ibanqa-process.js';
import { wrkPath } from './lib/machine.js';
import { coresUsed, machineCoresBetween, machineCpu, procCpuSeconds } from './lib/proc.js';
import { round, writeResult } from './lib/results.js';

export const threadSettings = {
  threads: [1, 2, 1, 2],
  ibansPerRequest: [100, 1],
  distinctBodies: 100,
  connections: 32,
  warmupSeconds: 2,
  seconds: 10,
} as const;

export interface ThreadRun {
  readonly httpThreads: number;
  readonly ibansPerRequest: number;
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
  /** Server process CPU over the window, in cores; and per request in microseconds. */
  readonly serverCores: number;
  readonly serverCpuUsPerRequest: number;
  readonly machineBusyCores: number;
  readonly stealCores: number;
  readonly loadAverage: readonly number[];
}

async function measure(
  wrk: string,
  pid: number,
  target: PostTarget,
  httpThreads: number,
  ibansPerRequest: number,
): Promise<ThreadRun> {
  const { connections, warmupSeconds, seconds } = threadSettings;
  await runWrk(wrk, target, connections, warmupSeconds);
  const cpuBefore = procCpuSeconds(pid);
  const machineBefore = machineCpu();
  const started = performance.now();
  const figures = await runWrk(wrk, target, connections, seconds);
  const wallSeconds = (performance.now() - started) / 1000;
  const serverCores = coresUsed(cpuBefore, procCpuSeconds(pid), wallSeconds);
  const machine = machineCoresBetween(machineBefore, machineCpu(), wallSeconds);
  return {
    httpThreads,
    ibansPerRequest,
    reqPerSec: figures.reqPerSec,
    p50Ms: figures.p50Ms,
    p99Ms: figures.p99Ms,
    non2xx: figures.non2xx,
    errors: figures.errors,
    serverCores: round(serverCores, 2),
    serverCpuUsPerRequest:
      figures.reqPerSec > 0 ? Math.round((serverCores * 1e6) / figures.reqPerSec) : 0,
    machineBusyCores: machine.busyCores,
    stealCores: machine.stealCores,
    loadAverage: loadavg().map((value) => round(value, 2)),
  };
}

export async function runRestThreads(
  log: (line: string) => void = console.log,
): Promise<{ settings: typeof threadSettings; runs: ThreadRun[] }> {
  const wrk = wrkPath();
  if (wrk === null) throw new Error('wrk is needed (apt-get install -y wrk)');
  const ibans = mixedIbans(100 * threadSettings.distinctBodies, noRegistryContext);
  const runs: ThreadRun[] = [];
  for (const httpThreads of threadSettings.threads) {
    const ibanqa = await startIbanqa({ IBANQA_HTTP_THREADS: String(httpThreads) });
    try {
      for (const size of threadSettings.ibansPerRequest) {
        const bodies = chunks(ibans, size)
          .slice(0, threadSettings.distinctBodies)
          .map((list) => JSON.stringify({ ibans: list }));
        const target = {
          port: ibanqa.httpPort,
          path: '/api/v1/validate',
          headers: { 'x-api-key': ibanqa.unlimitedKey },
          bodies,
        };
        log(`rest-threads: IBANQA_HTTP_THREADS=${httpThreads}, ${size} IBAN(s) per request`);
        const run = await measure(wrk, ibanqa.child.pid, target, httpThreads, size);
        log(
          `  ${run.reqPerSec} req/s, p99 ${run.p99Ms} ms, server ${run.serverCores} cores (${run.serverCpuUsPerRequest} µs/request), non-2xx ${run.non2xx}`,
        );
        runs.push(run);
      }
    } finally {
      await ibanqa.stop();
    }
  }
  return { settings: threadSettings, runs };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runRestThreads();
  console.log(`wrote ${writeResult('rest-threads', result)}`);
}
