/**
 * Synthetic profiles: 10,000 bulk rows with profiles under 1 s, and POST /profile p99 under 5 ms (built-in provider).
 *
 *   node --import tsx bench/profiles.bench.ts        (npm run bench:profiles)
 *
 * In-process on the execute path every transport uses (authenticate, JSON Schema validation, gate, credit
 * reservation, the op, commit) with the embedded default registry, then over real HTTP against the service in
 * its own process, once per ledger durability (IBANQA_LEDGER_DURABILITY): /profile from the lean sequential
 * client, one request at a time so latency is not queueing (the earlier fetch client in the service's own
 * process put its garbage collections and CPU into the figure: p99 13.6 against 8.9 ms for the same build);
 * bulk datasets of 10,000 rows run in the worker pool as in production. The pool is warmed first (two
 * concurrent bulk requests, one per worker: each worker loads its modules, the country's bank maps and its
 * per-thread faker and phone caches), so the figures are the steady state, not a worker still compiling at
 * start. Writes bench/results/profiles.json and its section of bench/RESULTS.md.
 */
import { ledgerDurabilities, type LedgerDurability } from '../src/accounts/ledger-durability.js';
import type { AnyOp } from '../src/contract/op.js';
import { ibanBulkDataset } from '../src/ops/iban/bulk-dataset.js';
import { profileGenerate } from '../src/ops/profiles/profile.js';
import {
  collectClientGarbage,
  encodePost,
  LatencyClient,
  withClientGc,
} from './lib/latency-client.js';
import { startIbanqa } from './lib/ibanqa-process.js';
import { withInlineService } from './lib/inline-service.js';
import { resultsMdPath } from './lib/report.js';
import { round, writeResult } from './lib/results.js';
import { writeSection } from './lib/sections.js';

const bulkRows = 10_000;
const bulkTargetMs = 1_000;
const profileTargetP99Ms = 5;
const bulkRuns = 5;
const profileRuns = 3_000;
const warmUpRuns = 300;
const httpProfileRuns = 2_000;
/**
 * /profile requests between the after-start window and the steady-state one. Measured 2026-11-24 (process
 * durability, 5 windows of 2,000 in a row on one service): p99 5.5, 4.0, 2.9, 2.5, 1.3 ms. Each country's
 * code paths (names, national ids, phone plans) get hot one by one and each country builds its faker tables
 * on first use (35 countries, 127 ms in all, up to 13.6 ms for one), so a harness sees the steady figure after
 * its first few thousand calls.
 */
const steadyAfterRuns = 8_000;
const httpBulkRuns = 5;
/** Concurrent bulk requests before measuring over HTTP: one per pool thread. */
const poolThreads = 2;

const bulkOp: AnyOp = ibanBulkDataset;
const profileOp: AnyOp = profileGenerate;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

function summary(timings: number[]) {
  const sorted = [...timings].sort((a, b) => a - b);
  return {
    runs: sorted.length,
    p50Ms: round(percentile(sorted, 0.5), 3),
    p99Ms: round(percentile(sorted, 0.99), 3),
    maxMs: round(sorted.at(-1) ?? Number.NaN, 3),
  };
}

function inProcess() {
  return withInlineService([bulkOp, profileOp], async (service, identity) => {
    const profile: number[] = [];
    for (let run = 0; run < profileRuns + warmUpRuns; run++) {
      const started = performance.now();
      const outcome = await service.execute(
        profileOp,
        { country: run % 2 === 0 ? 'DE' : 'Random' },
        identity,
      );
      JSON.stringify(outcome.output);
      if (run >= warmUpRuns) profile.push(performance.now() - started);
    }
    const bulk: number[] = [];
    const bulkCpu: number[] = [];
    for (let run = 0; run <= bulkRuns; run++) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const outcome = await service.execute(
        bulkOp,
        { country: 'DE', quantity: bulkRows, include_profiles: true },
        identity,
      );
      JSON.stringify(outcome.output);
      const spent = process.cpuUsage(cpu);
      if (run > 0) {
        bulk.push(performance.now() - started);
        bulkCpu.push((spent.user + spent.system) / 1000);
      }
    }
    // CPU time of this process: on a machine shared with other builds, wall time includes waiting for a core.
    return { profile: summary(profile), bulk: summary(bulk), bulkCpu: summary(bulkCpu) };
  });
}

/** The service in its own process, as a harness runs it: the client's work and garbage are not in the figures. */
async function overHttp(durability: LedgerDurability) {
  const service = await startIbanqa({
    IBANQA_POOL_THREADS: String(poolThreads),
    IBANQA_LEDGER_DURABILITY: durability,
  });
  try {
    const base = `http://127.0.0.1:${service.httpPort}/api/v1`;
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': service.unlimitedKey },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status !== 200)
        throw new Error(`${path} answered ${response.status}: ${text.slice(0, 200)}`);
      return text.length;
    };
    const bulkBody = { country: 'DE', quantity: bulkRows, include_profiles: true };
    await Promise.all(Array.from({ length: poolThreads }, () => post('/bulk-dataset', bulkBody)));
    collectClientGarbage(); // the bulk warm-up's 14 MB bodies, not collected inside the timed windows
    const { result: windows, clientGc } = await withClientGc(() =>
      sequentialProfiles(service.httpPort, service.unlimitedKey),
    );
    const bulk: number[] = [];
    let bytes = 0;
    for (let run = 0; run <= httpBulkRuns; run++) {
      const started = performance.now();
      bytes = await post('/bulk-dataset', bulkBody);
      if (run > 0) bulk.push(performance.now() - started);
    }
    return {
      durability,
      afterStart: summary(windows.afterStart),
      profile: summary(windows.steady),
      clientGc,
      bulk: { ...summary(bulk), responseBytes: bytes },
    };
  } finally {
    await service.stop();
  }
}

/**
 * /profile one at a time over one keep-alive connection (bench/lib/latency-client.ts), FR and Random alternating:
 * the first window right after start (and the pool warm-up), the steady one after steadyAfterRuns more.
 */
async function sequentialProfiles(
  port: number,
  key: string,
): Promise<{ afterStart: number[]; steady: number[] }> {
  const client = await LatencyClient.open('127.0.0.1', port);
  const requests = ['FR', 'Random'].map((country) =>
    encodePost(
      '127.0.0.1',
      port,
      '/api/v1/profile',
      { 'x-api-key': key },
      JSON.stringify({ country }),
    ),
  );
  const window = async (runs: number) => {
    const timings: number[] = [];
    for (let run = 0; run < runs; run++) timings.push(await client.send(requests[run % 2]!));
    return timings;
  };
  try {
    const afterStart = await window(httpProfileRuns);
    await window(steadyAfterRuns);
    return { afterStart, steady: await window(httpProfileRuns) };
  } finally {
    client.close();
  }
}

export async function runProfilesBench(log: (line: string) => void) {
  const http: Awaited<ReturnType<typeof overHttp>>[] = [];
  for (const durability of ledgerDurabilities) {
    const figures = await overHttp(durability);
    http.push(figures);
    log(
      `profiles over HTTP, ${durability} durability: /profile after start p50 ${figures.afterStart.p50Ms} ms p99 ${figures.afterStart.p99Ms} ms, steady p50 ${figures.profile.p50Ms} ms p99 ${figures.profile.p99Ms} ms (client GC ${figures.clientGc.count}, max ${figures.clientGc.maxMs} ms); bulk ${bulkRows} rows p50 ${figures.bulk.p50Ms} ms max ${figures.bulk.maxMs} ms (${figures.bulk.responseBytes} bytes)`,
    );
  }
  // After the HTTP runs: the in-process part leaves this process a large heap whose collections would land
  // in the HTTP client's timings (21 pauses, up to 73 ms, measured when it ran first).
  const local = await inProcess();
  log(
    `profiles in-process: /profile p50 ${local.profile.p50Ms} ms p99 ${local.profile.p99Ms} ms; bulk ${bulkRows} rows with profiles p50 ${local.bulk.p50Ms} ms (CPU ${local.bulkCpu.p50Ms} ms) max ${local.bulk.maxMs} ms`,
  );
  const byDurability = (durability: LedgerDurability) =>
    http.find((figures) => figures.durability === durability)!;
  return {
    bulkRows,
    inProcess: local,
    http,
    targets: { bulkMs: bulkTargetMs, profileP99Ms: profileTargetP99Ms },
    met: {
      bulkInProcess: local.bulk.p50Ms < bulkTargetMs,
      bulkInProcessCpu: local.bulkCpu.p50Ms < bulkTargetMs,
      bulkHttp: byDurability('disk').bulk.p50Ms < bulkTargetMs,
      profileP99Http: byDurability('disk').profile.p99Ms < profileTargetP99Ms,
      profileP99HttpProcess: byDurability('process').profile.p99Ms < profileTargetP99Ms,
    },
  };
}

type ProfilesResult = Awaited<ReturnType<typeof runProfilesBench>>;

export function profilesSection(
  result: ProfilesResult,
  load: { before: string; after: string },
): string {
  const row = (what: string, t: { p50Ms: number; p99Ms: number; maxMs: number }) =>
    `| ${what} | ${t.p50Ms} | ${t.p99Ms} | ${t.maxMs} |`;
  const yes = (ok: boolean) => (ok ? 'met' : '**NOT met**');
  return [
    '## Synthetic profiles (bench/profiles.bench.ts)',
    '',
    `Machine: 2 vCPUs shared with other engineers' builds and tests while this ran (load average 1/5/15 min before the run: ${load.before}, after: ${load.after}).`,
    'Over HTTP: the service in its own process (`npm start` defaults, 2 pool threads), warmed with one bulk request per pool worker; /profile from the lean sequential client (bench/lib/latency-client.ts, one request at a time on one keep-alive connection, FR and Random alternating), bulk from fetch. In-process: Service.execute with the embedded registry.',
    'Ledger durability (IBANQA_LEDGER_DURABILITY, README): `disk` is the default; `process` commits to the OS page cache only (survives kill -9, not a power loss). Every answer waits for its debit to commit in both.',
    `Targets: ${result.bulkRows} bulk rows with profiles under ${result.targets.bulkMs} ms (in-process wall ${yes(result.met.bulkInProcess)}, CPU ${yes(result.met.bulkInProcessCpu)}, ` +
      `over HTTP ${yes(result.met.bulkHttp)}); /profile p99 under ${result.targets.profileP99Ms} ms over HTTP in the steady state: default \`disk\` durability ${yes(result.met.profileP99Http)}, \`process\` durability ${yes(result.met.profileP99HttpProcess)}.`,
    '',
    '| measure | p50 ms | p99 ms | max ms |',
    '| --- | --- | --- | --- |',
    row('/profile, execute path + JSON (in-process)', result.inProcess.profile),
    ...result.http.flatMap((figures) => [
      row(
        `/profile, HTTP round trip, ${figures.durability} durability, the first ${httpProfileRuns} after start`,
        figures.afterStart,
      ),
      row(
        `/profile, HTTP round trip, ${figures.durability} durability, steady state (after ${steadyAfterRuns} more; client GC over both: ${figures.clientGc.count} pauses, max ${figures.clientGc.maxMs} ms)`,
        figures.profile,
      ),
    ]),
    row(
      `bulk-dataset ${result.bulkRows} rows + profiles, execute path + JSON (in-process, inline), wall`,
      result.inProcess.bulk,
    ),
    row(`same, CPU time of the process (user + system)`, result.inProcess.bulkCpu),
    ...result.http.map((figures) =>
      row(
        `bulk-dataset ${result.bulkRows} rows + profiles, HTTP round trip (worker pool), ${figures.durability} durability`,
        figures.bulk,
      ),
    ),
    '',
    ...history,
  ].join('\n');
}

/** What the engine cost before the profile work, and what the CPU profiles showed (kept with every re-run). */
const history = [
  'Before (commit 3b09e80, same bench on a quiet machine, load average 1.18 / 0.56 / 0.21; no pool warm-up then): /profile',
  'in-process p50 1.351 ms p99 5.407 ms; over HTTP p50 2.459 ms p99 13.963 ms; bulk 10,000 rows + profiles in-process',
  'p50 929 ms (CPU 1006 ms), over HTTP p50 1663 ms.',
  '',
  'Where the time went (node --cpu-prof of the in-process bulk at 3b09e80): the person (bulkRowProfile) was 75 % of',
  "the rows' time, the IBAN columns (generateRow) 20 %, and the garbage collector 18-22 % of the process. Inside the",
  "person: faker's pattern evaluation (helpers.fake walking `{{a.b}}` from two entry points with fresh arrays and",
  'closures per step: street address, city, job title, last name) about a third, the quality score about a third',
  '(weak-marker regexes on ten fields, closures per call, a linear search of valid phone endings), Date objects for',
  'the birth date, and a spread-built response object. Changes, all byte-identical (a digest of 5,400 seeded /profile',
  'answers over every IBAN country and 22,000 seeded bulk rows in nine countries unchanged; golden tests unchanged):',
  "faker's expressions resolved once per locale chain and patterns split once (src/domain/profiles/faker-patterns.ts,",
  'pinned draw for draw against faker), calendar arithmetic for birth dates, a one-pass phone check with a lookup',
  'table, regexes skipped where they cannot match, no closures or spreads per row, cached locales and city lists.',
  'CPU per bulk-row person (bulkRowProfile: person, score and shape; same process, alternating, min of 12 rounds of',
  '5,000): 29.8-34.9 us before, 13.9-14.5 us after; /profile op run + JSON (DE/FR/IT/GB/PL): 71-79 us before, 40-49 us after.',
  '',
  'What remains: /profile latency is the execute path, not the person: in-process about two thirds of the wall time',
  'was waiting for the LMDB commit of the credit debit that execute awaits before answering (src/service/execute.ts,',
  'not profile code); the op itself is well under 0.1 ms of CPU. The bulk over HTTP runs in one pool worker (one task',
  'of 10,000 rows, a 14 MB JSON string rendered in the worker), then the main thread sends it and the bench client in',
  'the same process reads it; the IBAN columns (src/domain/iban, German account generation the largest part) are now',
  "about a third of the rows' time.",
  '',
  'Why the HTTP p99 had been over 5 ms (2026-11-24, quiet machine, load average 1.0-1.4), measured one part at a time:',
  "(1) the client: fetch in the service's own process put its collections and CPU into the figure; the service in its",
  'own process with the lean client took the p99 of the same build from 13.6 to 8.9 ms. (2) Warm-up: five windows of',
  '2,000 in a row on one service gave p99 5.5, 4.0, 2.9, 2.5, 1.3 ms (process durability) and 7.4, 5.4, 4.4, 3.4,',
  "4.7 ms (disk): each country's code paths get hot one by one, and each country builds its faker tables on first",
  'use (35 countries, 127 ms in all, up to 13.6 ms for one). Hence the two windows above. (3) The commit wait: p50',
  '1.1-1.5 ms with disk durability against 0.5-0.6 ms with process durability; once warm, the two p99s are close.',
  '',
  'Pool hand-over (bench/pool-transfer.ts, 2026-11-24 on the busy machine, load average 7-10): the rendered 14.3 MB',
  "bulk body posted as a string (structured clone) took a median 356 ms from the worker's postMessage to the main",
  "thread's handler; the same body as UTF-8 bytes in a transferred ArrayBuffer 44 ms, encoding included (the main",
  'thread otherwise encodes the string for the socket). Sending bytes needs RenderedBody, the pool task result and',
  "the REST front's send() to carry a Uint8Array (src/render, src/pool, src/transport/http: not changed here).",
];

if (import.meta.url === `file://${process.argv[1]}`) {
  const { loadavg } = await import('node:os');
  const loadNow = () =>
    loadavg()
      .map((value) => value.toFixed(2))
      .join(' / ');
  const before = loadNow();
  const result = await runProfilesBench((line) => console.log(line));
  const load = { before, after: loadNow() };
  console.log(`-> ${writeResult('profiles', { ...result, load })}`);
  writeSection(resultsMdPath, 'profiles', profilesSection(result, load));
}
