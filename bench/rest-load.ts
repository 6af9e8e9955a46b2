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
  /** Measured runs per server, the servers in turn each round (all up at once): the VM's speed drifts over minutes. */
  rounds: 3,
} as const;
export const restTargets = {
  ibansPerSecond: 1_000_000,
  vsBaseline: 3,
  /** The fair peer (the same answer bytes) spends at least this many times ibanqa's server CPU per request. */
  fairCpuRatio: 4,
  /** ibanqa's req/s over the bare uWS limit's in the same run (the limit answers with ibanqa's captured bytes). */
  limitShare: 0.2,
  p99Ms: 10,
} as const;

export interface ServedLoad extends LoadFigures {
  readonly ibansPerSec: number;
  /** Server process CPU over the measured window, in cores (1.0 = one core busy). */
  readonly serverCores: number;
  /** Whole machine over the same window: everything busy (server, client, other processes), and hypervisor steal. */
  readonly machineBusyCores: number;
  readonly stealCores: number;
  /** The alternation round (1-based) of this run. */
  readonly round?: number;
}

/** How a run is named in the ratios: its client, and its round when the servers alternated. */
export function runKey(run: Pick<ServedLoad, 'client' | 'round'>): string {
  return run.round === undefined ? run.client : `${run.client} round ${run.round}`;
}

export const serverNames = {
  ibanqa: 'ibanqa',
  limit: 'bare uWS (captured answers: the limit)',
  peer: 'baseline (node:http + ibantools)',
  fair: 'fair peer (node:http + ibantools + bank Map: the same bytes)',
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
  /** The fair peer's server CPU per request divided by ibanqa's, per run (target >= 4). */
  readonly fairCpuRatios?: Readonly<Record<string, number>>;
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

/** A server under load: its process and the route the load client posts to. */
interface LoadedServer {
  readonly name: ServerName;
  readonly pid: number;
  readonly target: PostTarget;
  stop(): Promise<void>;
}

/** One measured run of a server: wrk -t1 where installed, else autocannon. */
function measuredRun(server: LoadedServer, round: number): Promise<ServedLoad> {
  const { connections, seconds } = restSettings;
  const wrk = wrkPath();
  return measured(server.pid, () =>
    wrk === null
      ? runAutocannon(server.target, connections, seconds)
      : runWrk(wrk, server.target, connections, seconds),
  ).then((run) => ({ ...run, round }));
}

/**
 * Every server checked and warmed, then `rounds` measured runs each, the servers in turn within a round: the VM's
 * speed drifts by up to 2x over minutes, so the ratios of one round compare like with like.
 */
async function loadInAlternation(
  started: readonly LoadedServer[],
  log: (line: string) => void,
): Promise<ServerRun[]> {
  const { connections, warmupSeconds, seconds, rounds } = restSettings;
  const before: {
    sanity: { valid: number; responseBytes: number };
    memoryIdle: ProcMemory;
    runs: ServedLoad[];
  }[] = [];
  for (const server of started) {
    const sanity = await sanityCheck(server.target);
    const memoryIdle = procMemory(server.pid);
    log(`rest: ${server.name}: warm-up ${warmupSeconds} s (autocannon -c ${connections})`);
    await runAutocannon(server.target, connections, warmupSeconds);
    before.push({ sanity, memoryIdle, runs: [] });
  }
  for (let round = 1; round <= rounds; round++) {
    for (const [index, server] of started.entries()) {
      log(`rest: round ${round}/${rounds}: ${server.name}, ${seconds} s at -c${connections}`);
      before[index]?.runs.push(await measuredRun(server, round));
    }
  }
  return started.map((server, index) => {
    const { sanity, memoryIdle, runs } = before[index] as (typeof before)[number];
    return {
      server: server.name,
      runs,
      memoryIdle,
      memoryAfter: procMemory(server.pid),
      sanityValid: sanity.valid,
      requestBytes: Buffer.byteLength(server.target.bodies[0] ?? ''),
      responseBytes: sanity.responseBytes,
    };
  });
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

/** A bench server that prints "<banner> <port>" once it listens; its route is POST /api/v1/validate, no key. */
async function startBenchServer(
  name: ServerName,
  script: string,
  banner: RegExp,
  args: readonly string[],
  bodies: readonly string[],
): Promise<LoadedServer> {
  const child = spawnTs(script, [...args]);
  const port = Number((await waitForOutput(child, banner))[1]);
  return {
    name,
    pid: child.pid,
    target: { port, path: '/api/v1/validate', headers: {}, bodies },
    stop: () => child.stop(),
  };
}

function ratiosTo(
  ours: ServerRun | undefined,
  other: ServerRun | undefined,
  ratio: (ours: ServedLoad, other: ServedLoad) => number = (a, b) => a.reqPerSec / b.reqPerSec,
): Record<string, number> {
  const ratios: Record<string, number> = {};
  for (const run of ours?.runs ?? []) {
    const otherRun = other?.runs.find((candidate) => runKey(candidate) === runKey(run));
    if (otherRun !== undefined && otherRun.reqPerSec > 0 && run.reqPerSec > 0)
      ratios[runKey(run)] = round(ratio(run, otherRun), 3);
  }
  return ratios;
}

/**
 * Starts the servers that answer from ibanqa's captured answers (the limit, the fair peer) and the small-answer
 * peer, each added to `started` as soon as it runs (so a failure later still stops it).
 */
async function startReplayingServers(
  captured: readonly CapturedAnswer[],
  dir: string,
  bodies: readonly string[],
  started: LoadedServer[],
): Promise<void> {
  const file = join(dir, 'captured.json');
  writeFileSync(file, JSON.stringify(captured));
  const servers: [ServerName, string, RegExp, string[]][] = [
    [serverNames.limit, 'bench/bare-uws-server.ts', /^bare uws listening (\d+)/m, ['0', file]],
    [serverNames.fair, 'bench/fair-peer-server.ts', /^fair peer listening (\d+)/m, ['0', file]],
    [
      serverNames.peer,
      'bench/baseline-server.ts',
      /^baseline listening (\d+)/m,
      [String(await freePort())],
    ],
  ];
  for (const [name, script, banner, args] of servers)
    started.push(await startBenchServer(name, script, banner, args, bodies));
}

const noTarget: PostTarget = { port: 0, path: '', headers: {}, bodies: [] };
const cpuPerRequest = (run: ServedLoad) => run.serverCores / run.reqPerSec;

/**
 * ibanqa, the bare uWS limit replaying ibanqa's answers, the fair peer giving the same bytes and the small-answer
 * node:http peer: all up at once, measured in turn for `rounds` rounds, same bodies.
 */
export async function runRestLoad(log: (line: string) => void = console.log): Promise<RestResult> {
  const loadAverageAtStart = loadavg().map((value) => round(value, 2));
  const started: LoadedServer[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-rest-load-'));
  try {
    const ibanqa = await startIbanqa();
    // Stopped with the others even if generating or capturing fails; its entry gets its route below.
    started.push({
      name: serverNames.ibanqa,
      pid: ibanqa.child.pid,
      target: noTarget,
      stop: () => ibanqa.stop(),
    });
    const bodies = await generatedBodies(ibanqa);
    const target = {
      port: ibanqa.httpPort,
      path: '/api/v1/validate',
      headers: { 'x-api-key': ibanqa.unlimitedKey },
      bodies,
    };
    started[0] = { ...(started[0] as LoadedServer), target };
    await startReplayingServers(await captureAnswers(target), dir, bodies, started);
    const servers = await loadInAlternation(started, log);
    const byName = (name: ServerName) => servers.find((server) => server.server === name);
    const ours = byName(serverNames.ibanqa);
    return {
      settings: restSettings,
      loadAverageAtStart,
      servers,
      ratios: ratiosTo(ours, byName(serverNames.peer)),
      limitShares: ratiosTo(ours, byName(serverNames.limit)),
      fairCpuRatios: ratiosTo(
        ours,
        byName(serverNames.fair),
        (a, b) => cpuPerRequest(b) / cpuPerRequest(a),
      ),
    };
  } finally {
    for (const server of started) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runRestLoad();
  console.log(JSON.stringify(result, null, 2));
  console.log(`wrote ${writeResult('rest-load', result)}`);
}
