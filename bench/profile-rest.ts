import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { noRegistryContext } from '../src/domain/iban/national/types.js';
import { repoRoot } from './lib/child.js';
import { runAutocannon, runWrk, type LoadFigures } from './lib/http-load.js';
import { chunks, mixedIbans } from './lib/iban-list.js';
import { startIbanqa } from './lib/ibanqa-process.js';
import { wrkPath } from './lib/machine.js';
import { cpuBetween } from './lib/postgres-cpu.js';
import { threadCpuSeconds } from './lib/proc.js';
import { round, writeResult } from './lib/results.js';

/** Why REST costs what it costs: a V8 CPU profile of the service main thread under the same load as §2. */
const warmupSeconds = 2;
const loadSeconds = 8;
const connections = 32;
/** Rows of the report: the heaviest files and functions by self time. */
const topFiles = 15;
const topFunctions = 20;

interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string };
    readonly children?: readonly number[];
  }[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface ProfileShare {
  readonly name: string;
  readonly ms: number;
  readonly percent: number;
}

export interface RestProfile {
  readonly load: LoadFigures;
  /** Main-thread busy time inside the load window (idle and Atomics.wait excluded). */
  readonly busyMs: number;
  readonly byFile: readonly ProfileShare[];
  readonly byFunction: readonly ProfileShare[];
  /** The request envelope's parts, each with everything it calls (inclusive time), per request. */
  readonly envelope?: readonly EnvelopeShare[];
  /** CPU per request of the service process in the load window (/proc, profiler overhead included). */
  readonly threads?: ThreadShares;
}

export interface ThreadShares {
  /** The main thread: uWS, the ops, metering (what the profile above breaks down). */
  readonly mainUsPerRequest: number;
  /** Every other thread: LMDB's write thread, V8's GC and compiler helpers, libuv, the idle pool. */
  readonly otherUsPerRequest: number;
}

/** Main-thread and other-thread CPU of `pid` between two samples, per request. */
function threadShares(
  pid: number,
  before: Map<number, number>,
  after: Map<number, number>,
  requests: number,
): ThreadShares {
  const main = (after.get(pid) ?? 0) - (before.get(pid) ?? 0);
  const other = cpuBetween(before, after) - main;
  const perRequest = (seconds: number) => round((seconds * 1e6) / Math.max(1, requests), 1);
  return { mainUsPerRequest: perRequest(main), otherUsPerRequest: perRequest(other) };
}

export interface EnvelopeShare extends ProfileShare {
  readonly usPerRequest: number;
}

/**
 * The envelope around the /validate answer: a sample counts for a part when any frame of its stack is one of the
 * part's functions (so native work they call, JSON.parse, LMDB, the socket write, is theirs).
 */
const envelopeParts: readonly {
  readonly name: string;
  readonly file: string;
  readonly functions?: readonly string[];
}[] = [
  { name: 'body read and JSON.parse (transport/http/body.ts)', file: 'src/transport/http/body.ts' },
  {
    name: 'schema check (ops/framework/input-validation*.ts, ajv)',
    file: 'src/ops/framework/input-validation',
  },
  {
    name: 'registry version read (syncVersion)',
    file: 'src/registry/',
    functions: ['syncVersion', 'currentVersion', 'versionNow'],
  },
  {
    name: 'HTTP write (transport/http/respond.ts send)',
    file: 'src/transport/http/respond.ts',
    functions: ['send', 'sendError', 'writeCommonHeaders', 'writeAnswer'],
  },
];

const waiting = /^\((idle)\)$|atomicsWaitLoop/;

/** Self time per sample node inside [fromUs, toUs] of the profile clock. */
function selfTimes(profile: CpuProfile, fromUs: number, toUs: number): Map<number, number> {
  const times = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((node, index) => {
    at += profile.timeDeltas[index] ?? 0;
    if (at >= fromUs && at <= toUs)
      times.set(node, (times.get(node) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  return times;
}

function shares(totals: Map<string, number>, busyUs: number, limit: number): ProfileShare[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, us]) => ({ name, ms: round(us / 1000), percent: round((us / busyUs) * 100, 1) }));
}

type ProfileNode = CpuProfile['nodes'][number];

function partOf(node: ProfileNode): number {
  const { functionName, url } = node.callFrame;
  return envelopeParts.findIndex(
    (part) =>
      url.includes(part.file) &&
      (part.functions === undefined || part.functions.includes(functionName)),
  );
}

/** Inclusive time of each envelope part: the innermost part on a sample's stack takes the sample. */
function envelopeTimes(profile: CpuProfile, times: ReadonlyMap<number, number>): number[] {
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const partCache = new Map<number, number>();
  const stackPart = (id: number): number => {
    const cached = partCache.get(id);
    if (cached !== undefined) return cached;
    const node = byId.get(id);
    const own = node === undefined ? -1 : partOf(node);
    const above = parent.get(id);
    const part = own >= 0 || above === undefined ? own : stackPart(above);
    partCache.set(id, part);
    return part;
  };
  const totals = envelopeParts.map(() => 0);
  for (const [id, us] of times) {
    const node = byId.get(id);
    if (node === undefined || waiting.test(node.callFrame.functionName)) continue;
    const part = stackPart(id);
    if (part >= 0) totals[part] = (totals[part] ?? 0) + us;
  }
  return totals;
}

/** The load window is the last (load + shutdown) stretch of the profile: it ends when the process exits. */
function analyse(profile: CpuProfile, loadMs: number, shutdownMs: number): Analysis {
  const toUs = profile.endTime - shutdownMs * 1000;
  const times = selfTimes(profile, toUs - loadMs * 1000, toUs);
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busyUs = 0;
  for (const node of profile.nodes) {
    const us = times.get(node.id) ?? 0;
    const { functionName, url } = node.callFrame;
    if (us === 0 || waiting.test(functionName)) continue;
    const file =
      url === ''
        ? functionName.startsWith('(')
          ? functionName
          : `(${functionName || 'native'})`
        : url.replace(pathToFileURL(repoRoot).href, '').replace(repoRoot, '');
    busyUs += us;
    byFile.set(file, (byFile.get(file) ?? 0) + us);
    const name = url === '' ? file : `${functionName || '(anonymous)'} ${file}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  return {
    busyMs: round(busyUs / 1000),
    byFile: shares(byFile, busyUs, topFiles),
    byFunction: shares(byFunction, busyUs, topFunctions),
    envelopeUs: envelopeTimes(profile, times),
    frontUs:
      byFile.get('/src/transport/http/server.ts') ??
      byFile.get('src/transport/http/server.ts') ??
      0,
  };
}

interface Analysis extends Omit<RestProfile, 'load' | 'envelope'> {
  readonly envelopeUs: readonly number[];
  readonly frontUs: number;
}

function envelopeShares(analysis: Analysis, requests: number): EnvelopeShare[] {
  const busyUs = analysis.busyMs * 1000;
  return envelopeParts.map((part, index) => {
    const us = analysis.envelopeUs[index] ?? 0;
    return {
      name: part.name,
      ms: round(us / 1000),
      percent: round((us / busyUs) * 100, 1),
      usPerRequest: round(us / Math.max(1, requests), 1),
    };
  });
}

function readProfiles(dir: string): CpuProfile[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as CpuProfile);
}

/** Time in the REST front's own files: what tells the serving thread from the others. */
function frontMs(analysis: Analysis): number {
  return analysis.frontUs;
}

/**
 * The main thread is the profile that served the requests: the one with the most time in the REST front's files
 * (busy time alone picks the start-up registry import on a fresh data dir, whose process is profiled too).
 */
function mainThreadAnalysis(dir: string, loadMs: number, shutdownMs: number): Analysis {
  const analyses = readProfiles(dir).map((profile) => analyse(profile, loadMs, shutdownMs));
  const main = analyses.sort((a, b) => frontMs(b) - frontMs(a) || b.busyMs - a.busyMs)[0];
  if (main === undefined) throw new Error(`no .cpuprofile written in ${dir}`);
  return main;
}

export async function runRestProfile(
  log: (line: string) => void = console.log,
): Promise<RestProfile> {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-prof-'));
  try {
    const service = await startIbanqa({}, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
    const bodies = chunks(mixedIbans(10_000, noRegistryContext), 100).map((ibans) =>
      JSON.stringify({ ibans }),
    );
    const target = {
      port: service.httpPort,
      path: '/api/v1/validate',
      headers: { 'x-api-key': service.unlimitedKey },
      bodies,
    };
    let load: LoadFigures;
    let shutdownMs: number;
    let threads: ThreadShares;
    try {
      await runAutocannon(target, connections, warmupSeconds);
      const wrk = wrkPath();
      log(
        `profile: ${wrk === null ? 'autocannon' : 'wrk'} -c${connections} ${loadSeconds} s against a profiled service`,
      );
      const threadsBefore = threadCpuSeconds(service.child.pid);
      load =
        wrk === null
          ? await runAutocannon(target, connections, loadSeconds)
          : await runWrk(wrk, target, connections, loadSeconds);
      threads = threadShares(
        service.child.pid,
        threadsBefore,
        threadCpuSeconds(service.child.pid),
        load.requests,
      );
    } finally {
      const stopping = performance.now();
      await service.stop();
      shutdownMs = performance.now() - stopping;
    }
    const main = mainThreadAnalysis(dir, load.seconds * 1000, shutdownMs);
    const { envelopeUs: _envelopeUs, frontUs: _frontUs, ...analysis } = main;
    return { load, ...analysis, envelope: envelopeShares(main, load.requests), threads };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runRestProfile();
  console.log(JSON.stringify(result, null, 2));
  // --envelope: a look at the envelope's parts that leaves the recorded profile (RESULTS.md section 5) alone.
  if (process.argv.includes('--envelope')) console.table(result.envelope);
  else console.log(`wrote ${writeResult('rest-profile', result)}`);
}
