import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { noRegistryContext } from '../src/domain/iban/national/types.js';
import { spawnTs, waitForOutput } from './lib/child.js';
import { runAutocannon, runWrk, type LoadFigures, type PostTarget } from './lib/http-load.js';
import { chunks, mixedIbans } from './lib/iban-list.js';
import { startIbanqa } from './lib/ibanqa-process.js';
import { wrkPath } from './lib/machine.js';
import { coresUsed, freePort, machineCoresBetween, machineCpu, procCpuSeconds, procMemory, type ProcMemory } from './lib/proc.js';
import { round, writeResult } from './lib/results.js';

/** The issue: 100-IBAN bodies (the validate maximum), 10 s measured after a 2 s warm-up, 32 connections. */
export const restSettings = { ibansPerRequest: 100, distinctBodies: 100, connections: 32, warmupSeconds: 2, seconds: 10 } as const;
export const restTargets = { ibansPerSecond: 1_000_000, vsBaseline: 3 } as const;

export interface ServedLoad extends LoadFigures {
  readonly ibansPerSec: number;
  /** Server process CPU over the measured window, in cores (1.0 = one core busy). */
  readonly serverCores: number;
  /** Whole machine over the same window: everything busy (server, client, other processes), and hypervisor steal. */
  readonly machineBusyCores: number;
  readonly stealCores: number;
}

export interface ServerRun {
  readonly server: 'ibanqa' | 'baseline (node:http + ibantools)';
  readonly runs: readonly ServedLoad[];
  readonly memoryIdle: ProcMemory;
  readonly memoryAfter: ProcMemory;
  /** Rows of the sanity request that came back valid (all bodies are generated, valid IBANs). */
  readonly sanityValid: number;
  /** Bytes of one request body and of its response: the response dominates what the server writes. */
  readonly requestBytes: number;
  readonly responseBytes: number;
}

export interface RestResult {
  readonly settings: typeof restSettings;
  readonly loadAverageAtStart: readonly number[];
  readonly servers: readonly ServerRun[];
  /** ibanqa req/s divided by baseline req/s, per client. */
  readonly ratios: Readonly<Record<string, number>>;
}

async function measured(pid: number, run: () => Promise<LoadFigures>): Promise<ServedLoad> {
  const cpuBefore = procCpuSeconds(pid);
  const machineBefore = machineCpu();
  const started = performance.now();
  const figures = await run();
  const wallSeconds = (performance.now() - started) / 1000;
  const serverCores = coresUsed(cpuBefore, procCpuSeconds(pid), wallSeconds);
  const machine = machineCoresBetween(machineBefore, machineCpu(), wallSeconds);
  return {
    ...figures,
    ibansPerSec: figures.reqPerSec * restSettings.ibansPerRequest,
    serverCores: round(serverCores, 2),
    machineBusyCores: machine.busyCores,
    stealCores: machine.stealCores,
  };
}

/** One request before the load: the route answers 200 with one row per IBAN, or the numbers mean nothing. */
async function sanityCheck(target: PostTarget): Promise<{ valid: number; responseBytes: number }> {
  const response = await fetch(`http://127.0.0.1:${target.port}${target.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    body: target.bodies[0],
  });
  const text = await response.text();
  const rows = (response.status === 200 ? JSON.parse(text) : null) as { valid: boolean }[] | null;
  if (!Array.isArray(rows) || rows.length !== restSettings.ibansPerRequest) {
    throw new Error(`sanity request to port ${target.port} failed: HTTP ${response.status} ${text.slice(0, 200)}`);
  }
  return { valid: rows.filter((row) => row.valid).length, responseBytes: Buffer.byteLength(text) };
}

async function loadServer(name: ServerRun['server'], pid: number, target: PostTarget, log: (line: string) => void): Promise<ServerRun> {
  const { connections, warmupSeconds, seconds } = restSettings;
  const sanity = await sanityCheck(target);
  const memoryIdle = procMemory(pid);
  log(`rest: ${name}: warm-up ${warmupSeconds} s, then autocannon -c ${connections} for ${seconds} s`);
  await runAutocannon(target, connections, warmupSeconds);
  const runs: ServedLoad[] = [await measured(pid, () => runAutocannon(target, connections, seconds))];
  const wrk = wrkPath();
  if (wrk !== null) {
    log(`rest: ${name}: wrk -t1 -c${connections} -d${seconds}s`);
    runs.push(await measured(pid, () => runWrk(wrk, target, connections, seconds)));
  }
  const requestBytes = Buffer.byteLength(target.bodies[0] ?? '');
  return { server: name, runs, memoryIdle, memoryAfter: procMemory(pid), sanityValid: sanity.valid, requestBytes, responseBytes: sanity.responseBytes };
}

function bodiesOf(ibans: readonly string[]): string[] {
  return chunks(ibans, restSettings.ibansPerRequest).map((list) => JSON.stringify({ ibans: list }));
}

export async function runRestLoad(log: (line: string) => void = console.log): Promise<RestResult> {
  const loadAverageAtStart = loadavg().map((value) => round(value, 2));
  // Bodies need no registry: random bank codes are unknown to any directory; the server validates with its own.
  const bodies = bodiesOf(mixedIbans(restSettings.ibansPerRequest * restSettings.distinctBodies, noRegistryContext));
  const servers: ServerRun[] = [];
  const ibanqa = await startIbanqa();
  try {
    const target = { port: ibanqa.httpPort, path: '/api/v1/validate', headers: { 'x-api-key': ibanqa.unlimitedKey }, bodies };
    servers.push(await loadServer('ibanqa', ibanqa.child.pid, target, log));
  } finally {
    await ibanqa.stop();
  }
  const baseline = spawnTs('bench/baseline-server.ts', [String(await freePort())]);
  try {
    const port = Number((await waitForOutput(baseline, /^baseline listening (\d+)/m))[1]);
    servers.push(await loadServer('baseline (node:http + ibantools)', baseline.pid, { port, path: '/api/v1/validate', headers: {}, bodies }, log));
  } finally {
    await baseline.stop();
  }
  const ratios: Record<string, number> = {};
  const [ours, peer] = servers;
  for (const run of ours?.runs ?? []) {
    const peerRun = peer?.runs.find((candidate) => candidate.client === run.client);
    if (peerRun !== undefined && peerRun.reqPerSec > 0) ratios[run.client] = round(run.reqPerSec / peerRun.reqPerSec, 2);
  }
  return { settings: restSettings, loadAverageAtStart, servers, ratios };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runRestLoad();
  console.log(JSON.stringify(result, null, 2));
  console.log(`wrote ${writeResult('rest-load', result)}`);
}
