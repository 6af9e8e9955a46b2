import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { countryFormats } from '../src/domain/iban/index.js';
import type { CapturedAnswer } from './bare-uws-server.js';
import { spawnTs, waitForOutput } from './lib/child.js';
import { runAutocannon, runWrk, type LoadFigures, type PostTarget } from './lib/http-load.js';
import { startIbanqa, type IbanqaProcess } from './lib/ibanqa-process.js';
import { wrkPath } from './lib/machine.js';
import {
  coresUsed,
  freePort,
  machineCoresBetween,
  machineCpu,
  procCpuSeconds,
  procMemory,
  type ProcMemory,
} from './lib/proc.js';
import { round, writeResult } from './lib/results.js';

/** The issue: 100-IBAN bodies (the validate maximum), 10 s measured after a 2 s warm-up, 32 connections. */
export const restSettings = {
  ibansPerRequest: 100,
  distinctBodies: 100,
  connections: 32,
  warmupSeconds: 2,
  seconds: 10,
} as const;
export const restTargets = {
  ibansPerSecond: 1_000_000,
  vsBaseline: 3,
  limitShare: 0.25,
  p99Ms: 10,
} as const;

export interface ServedLoad extends LoadFigures {
  readonly ibansPerSec: number;
  /** Server process CPU over the measured window, in cores (1.0 = one core busy). */
  readonly serverCores: number;
  /** Whole machine over the same window: everything busy (server, client, other processes), and hypervisor steal. */
  readonly machineBusyCores: number;
  readonly stealCores: number;
}

export const serverNames = {
  ibanqa: 'ibanqa',
  limit: 'bare uWS (captured answers: the limit)',
  peer: 'baseline (node:http + ibantools)',
} as const;
export type ServerName = (typeof serverNames)[keyof typeof serverNames];

export interface ServerRun {
  readonly server: ServerName;
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
  /** ibanqa req/s divided by the bare uWS limit's req/s, per client (target >= 0.25). */
  readonly limitShares: Readonly<Record<string, number>>;
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
    throw new Error(
      `sanity request to port ${target.port} failed: HTTP ${response.status} ${text.slice(0, 200)}`,
    );
  }
  return { valid: rows.filter((row) => row.valid).length, responseBytes: Buffer.byteLength(text) };
}

async function loadServer(
  name: ServerRun['server'],
  pid: number,
  target: PostTarget,
  log: (line: string) => void,
): Promise<ServerRun> {
  const { connections, warmupSeconds, seconds } = restSettings;
  const sanity = await sanityCheck(target);
  const memoryIdle = procMemory(pid);
  log(
    `rest: ${name}: warm-up ${warmupSeconds} s, then autocannon -c ${connections} for ${seconds} s`,
  );
  await runAutocannon(target, connections, warmupSeconds);
  const runs: ServedLoad[] = [
    await measured(pid, () => runAutocannon(target, connections, seconds)),
  ];
  const wrk = wrkPath();
  if (wrk !== null) {
    log(`rest: ${name}: wrk -t1 -c${connections} -d${seconds}s`);
    runs.push(await measured(pid, () => runWrk(wrk, target, connections, seconds)));
  }
  const requestBytes = Buffer.byteLength(target.bodies[0] ?? '');
  return {
    server: name,
    runs,
    memoryIdle,
    memoryAfter: procMemory(pid),
    sanityValid: sanity.valid,
    requestBytes,
    responseBytes: sanity.responseBytes,
  };
}

/**
 * Request bodies as a QA harness sends them: IBANs ibanqa itself generated (real bank codes where the registry
 * knows the country's banks), one seeded /generate per country in turn, interleaved so every body mixes
 * countries. Body j holds row j of each of 100 generate answers.
 */
export async function generatedBodies(ibanqa: IbanqaProcess): Promise<string[]> {
  const { ibansPerRequest, distinctBodies } = restSettings;
  const lists: string[][] = [];
  for (let call = 0; call < ibansPerRequest; call++) {
    const country = countryFormats[call % countryFormats.length]?.code ?? 'DE';
    const reply = await fetch(`http://127.0.0.1:${ibanqa.httpPort}/api/v1/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': ibanqa.unlimitedKey },
      body: JSON.stringify({ country, quantity: distinctBodies, seed: `rest-load-${call}` }),
    });
    const rows = (await reply.json()) as { iban: string }[] | undefined;
    if (reply.status !== 200 || !Array.isArray(rows) || rows.length !== distinctBodies)
      throw new Error(`/generate ${country}: HTTP ${reply.status}`);
    lists.push(rows.map((row) => row.iban));
  }
  return Array.from({ length: distinctBodies }, (_, body) =>
    JSON.stringify({ ibans: lists.map((list) => list[body]) }),
  );
}

/** What ibanqa answers to each body (status line, headers, bytes): the bare server replays exactly this. */
async function captureAnswers(target: PostTarget): Promise<CapturedAnswer[]> {
  const captured: CapturedAnswer[] = [];
  for (const body of target.bodies) {
    const reply = await fetch(`http://127.0.0.1:${target.port}${target.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...target.headers },
      body,
    });
    const headers = [...reply.headers.entries()].filter(
      ([name]) => name !== 'content-length' && name !== 'date' && name !== 'connection',
    );
    captured.push({
      body,
      status: `${reply.status} ${reply.statusText}`,
      headers,
      response: await reply.text(),
    });
  }
  return captured;
}

async function loadBareLimit(
  captured: readonly CapturedAnswer[],
  bodies: readonly string[],
  log: (line: string) => void,
): Promise<ServerRun> {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-bare-'));
  const file = join(dir, 'captured.json');
  writeFileSync(file, JSON.stringify(captured));
  const bare = spawnTs('bench/bare-uws-server.ts', ['0', file]);
  try {
    const port = Number((await waitForOutput(bare, /^bare uws listening (\d+)/m))[1]);
    return await loadServer(
      serverNames.limit,
      bare.pid,
      { port, path: '/api/v1/validate', headers: {}, bodies },
      log,
    );
  } finally {
    await bare.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function ratiosTo(
  ours: ServerRun | undefined,
  other: ServerRun | undefined,
): Record<string, number> {
  const ratios: Record<string, number> = {};
  for (const run of ours?.runs ?? []) {
    const otherRun = other?.runs.find((candidate) => candidate.client === run.client);
    if (otherRun !== undefined && otherRun.reqPerSec > 0)
      ratios[run.client] = round(run.reqPerSec / otherRun.reqPerSec, 3);
  }
  return ratios;
}

/** ibanqa, then the bare uWS limit replaying ibanqa's answers, then the node:http peer: one after another, same bodies. */
export async function runRestLoad(log: (line: string) => void = console.log): Promise<RestResult> {
  const loadAverageAtStart = loadavg().map((value) => round(value, 2));
  const servers: ServerRun[] = [];
  let bodies: string[];
  let captured: CapturedAnswer[];
  const ibanqa = await startIbanqa();
  try {
    bodies = await generatedBodies(ibanqa);
    const target = {
      port: ibanqa.httpPort,
      path: '/api/v1/validate',
      headers: { 'x-api-key': ibanqa.unlimitedKey },
      bodies,
    };
    captured = await captureAnswers(target);
    servers.push(await loadServer(serverNames.ibanqa, ibanqa.child.pid, target, log));
  } finally {
    await ibanqa.stop();
  }
  servers.push(await loadBareLimit(captured, bodies, log));
  const baseline = spawnTs('bench/baseline-server.ts', [String(await freePort())]);
  try {
    const port = Number((await waitForOutput(baseline, /^baseline listening (\d+)/m))[1]);
    servers.push(
      await loadServer(
        serverNames.peer,
        baseline.pid,
        { port, path: '/api/v1/validate', headers: {}, bodies },
        log,
      ),
    );
  } finally {
    await baseline.stop();
  }
  const byName = (name: ServerName) => servers.find((server) => server.server === name);
  return {
    settings: restSettings,
    loadAverageAtStart,
    servers,
    ratios: ratiosTo(byName(serverNames.ibanqa), byName(serverNames.peer)),
    limitShares: ratiosTo(byName(serverNames.ibanqa), byName(serverNames.limit)),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runRestLoad();
  console.log(JSON.stringify(result, null, 2));
  console.log(`wrote ${writeResult('rest-load', result)}`);
}
