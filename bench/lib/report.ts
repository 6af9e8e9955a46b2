import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { GrpcResult } from '../grpc-load.js';
import { grpcTargets } from '../grpc-load.js';
import type { MicroResult } from '../micro.bench.js';
import { microTargets } from '../micro.bench.js';
import type { PoolResult } from '../pool-threshold.js';
import type { RestProfile } from '../profile-rest.js';
import type { RestResult } from '../rest-load.js';
import { restTargets, runKey, serverNames } from '../rest-load.js';
import type { AllResults, DriverRun } from './all-results.js';
import { dec, int, table, verdict } from './format.js';
import { shortfallSection } from './report-shortfalls.js';
import { markedSections } from './sections.js';

export const resultsMdPath = fileURLToPath(new URL('../RESULTS.md', import.meta.url));

function describeRun(run: DriverRun): string {
  const dirty =
    run.changedPaths === null || run.changedPaths === 0
      ? ''
      : ` with ${run.changedPaths} paths changed or untracked in the working tree`;
  return `${run.driver} ${run.measuredAt} at commit ${run.commit ?? 'unknown'}${dirty}`;
}

function machineSection(all: AllResults): string {
  const m = all.machine;
  if (m === undefined) return '## Machine\n\nNo result files yet.';
  const loads = [
    ['REST load', all.rest?.loadAverageAtStart],
    ['gRPC load', all.grpc?.loadAverageAtStart],
    ['pool threshold', all.pool?.loadAverageAtStart],
  ].flatMap(([name, load]) =>
    Array.isArray(load) ? [`${String(name)} ${load.map((v: number) => dec(v)).join(' / ')}`] : [],
  );
  return [
    '## Machine',
    '',
    table(
      ['nproc', 'CPU (/proc/cpuinfo)', 'RAM', 'Node', 'HTTP load clients'],
      [
        [
          String(m.nproc),
          `${m.cpuModel}${m.cpuMhz === null ? '' : ` @ ${m.cpuMhz} MHz`}`,
          `${m.ramGiB} GiB`,
          m.node,
          m.wrk === null
            ? 'autocannon 9.0.0 (wrk not installed)'
            : `autocannon 9.0.0 and wrk (${m.wrk}, -t1)`,
        ],
      ],
    ),
    '',
    `Measured: ${all.runs.map(describeRun).join('; ')}. Load average (1/5/15 min) when each driver started: ${loads.join('; ') || 'n/a'}.`,
    'The machine is a shared 2-vCPU VM: other work running at the same time (load average above ~0.5) takes',
    'CPU from the server and the client alike, so treat single figures as ±30 % and compare ratios taken in one run.',
  ].join('\n');
}

function restSummaryRows(rest: AllResults['rest']): string[][] {
  const rows: string[][] = [];
  const ours = rest?.servers.find((server) => server.server === 'ibanqa');
  for (const run of ours?.runs ?? []) {
    rows.push([
      `REST POST /validate IBANs/s (${runKey(run)}, metering on)`,
      int(run.ibansPerSec),
      `>= ${int(restTargets.ibansPerSecond)}`,
      verdict(run.ibansPerSec >= restTargets.ibansPerSecond),
    ]);
    const ratio = rest?.ratios[runKey(run)];
    if (ratio !== undefined)
      rows.push([
        `REST ibanqa / small-answer peer (node:http + ibantools) req/s (${runKey(run)})`,
        `${dec(ratio)}x`,
        `>= ${restTargets.vsBaseline}x`,
        verdict(ratio >= restTargets.vsBaseline),
      ]);
    const fairRatio = rest?.fairCpuRatios?.[runKey(run)];
    if (fairRatio !== undefined)
      rows.push([
        `REST fair peer CPU / ibanqa CPU per request (${runKey(run)})`,
        `${dec(fairRatio)}x`,
        `>= ${restTargets.fairCpuRatio}x`,
        verdict(fairRatio >= restTargets.fairCpuRatio),
      ]);
    const share = rest?.limitShares?.[runKey(run)];
    if (share !== undefined)
      rows.push([
        `REST ibanqa / bare uWS limit req/s (${runKey(run)})`,
        `${dec(share * 100, 1)} %`,
        `>= ${dec(restTargets.limitShare * 100, 0)} %`,
        verdict(share >= restTargets.limitShare),
      ]);
    rows.push([
      `REST p99 ms at ${rest?.settings.connections ?? 0} connections (${runKey(run)})`,
      dec(run.p99Ms),
      `< ${restTargets.p99Ms}`,
      verdict(run.p99Ms < restTargets.p99Ms),
    ]);
  }
  return rows;
}

function summarySection(all: AllResults): string {
  const rows: string[][] = [];
  const { micro, rest, grpc } = all;
  if (micro !== undefined) {
    const vsTools = micro.ratios.engineVsIbantools ?? 0;
    const national = micro.ratios.nationalVsMod97 ?? 0;
    rows.push([
      'Engine validateIban vs ibantools.isValidIBAN (100k mixed)',
      `${dec(vsTools, 1)}x faster`,
      `>= ${microTargets.engineVsIbantools}x`,
      verdict(vsTools >= microTargets.engineVsIbantools),
    ]);
    rows.push([
      'National checks vs bare mod 97 (same list)',
      `${dec(national)}x the time`,
      `<= ${microTargets.nationalVsMod97Max}x`,
      verdict(national <= microTargets.nationalVsMod97Max),
    ]);
  }
  rows.push(...restSummaryRows(rest));
  for (const run of grpc?.runs ?? []) {
    rows.push([
      `gRPC ValidateStream IBANs/s (${run.clientProcesses} client process${run.clientProcesses > 1 ? 'es' : ''} x ${run.streamsPerProcess} stream${run.streamsPerProcess > 1 ? 's' : ''})`,
      int(run.ibansPerSec),
      `>= ${int(grpcTargets.ibansPerSecond)}`,
      verdict(run.ibansPerSec >= grpcTargets.ibansPerSecond),
    ]);
  }
  if (all.pool !== undefined) {
    const pool = all.pool;
    const sizes = (c: {
      latencyCrossoverRows: number | null;
      throughputCrossoverRows: number | null;
      loopReliefCrossoverRows: number | null;
    }) =>
      `latency ${c.latencyCrossoverRows ?? 'none'}, throughput ${c.throughputCrossoverRows ?? 'none'}, loop relief ${c.loopReliefCrossoverRows ?? 'none'}`;
    rows.push([
      'Pool crossover rows, row objects (gRPC streams, tests)',
      sizes(pool),
      `${int(pool.configuredThresholdRows)} configured`,
      'see §4',
    ]);
    rows.push([
      'Pool crossover rows, JSON-string worker (what REST does)',
      sizes(pool.json),
      `${int(pool.configuredThresholdRows)} configured`,
      'see §4',
    ]);
  }
  const failed = Object.entries(all.failures).map(
    ([name, message]) => `- ${name} FAILED in this run: ${message}`,
  );
  return [
    '## Summary against the targets',
    '',
    table(['figure', 'measured', 'target', 'status'], rows),
    ...(failed.length > 0 ? ['', ...failed] : []),
  ].join('\n');
}

function microSection(micro: MicroResult | undefined): string {
  if (micro === undefined) return '## 1. Micro-benchmarks (tinybench)\n\nNot run.';
  const rowsOf = (figures: MicroResult['validation'], withAccepted: boolean) =>
    figures.map((f) => [
      f.task,
      dec(f.meanMs),
      `±${dec(f.rmePercent, 1)} %`,
      int(f.itemsPerSecond),
      ...(withAccepted ? [`${int(f.accepted ?? 0)} / ${int(f.items)}`] : []),
    ]);
  const r = micro.ratios;
  return [
    '## 1. Micro-benchmarks (tinybench)',
    '',
    `One tinybench run, 10 iterations + 2 warm-ups per task, every iteration validates the whole list of ${int(micro.listSize)}`,
    'synthetic IBANs (our generateIban + rowRng, all registry countries round-robin, flat strings as JSON.parse yields them).',
    '',
    table(
      ['implementation', 'mean ms per list', 'rme', 'IBANs/s', 'accepted'],
      rowsOf(micro.validation, true),
    ),
    '',
    `Ratios: engine (service directory: the LMDB registry built from the embedded default) is ${dec(r.engineVsIbantools ?? 0)}x faster than ibantools, ${dec(r.engineVsIban ?? 0)}x faster than iban;`,
    `with noRegistryContext ${dec(r.engineNoRegistryVsIbantools ?? 0)}x ibantools. Full validation takes ${dec(r.nationalVsMod97 ?? 0)}x the time of bare mod 97.`,
    `Peers accept fewer of our IBANs because their country tables differ: ibantools rejects ${(micro.peerRejectedCountries['ibantools.isValidIBAN'] ?? []).join(', ') || 'none'};`,
    `iban rejects ${(micro.peerRejectedCountries['iban IBAN.isValid'] ?? []).join(', ') || 'none'}. A rejected country is usually cheaper (early exit), which flatters the peers slightly.`,
    `Single-character mutations of every 10th IBAN (${int(micro.mutatedCount)}): rejected by ${Object.entries(
      micro.mutatedRejected,
    )
      .map(([name, n]) => `${name} ${int(n)}`)
      .join(', ')}.`,
    '',
    '**Where the time over bare mod 97 goes** (same lists on both sides, generated and validated with noRegistryContext, so DE rows are `not_checked`):',
    '',
    table(['task', 'mean ms per list', 'rme', 'IBANs/s'], rowsOf(micro.breakdown, false)),
    '',
    `Ratios to bare mod 97: countries without a national rule ${dec(r.noRuleCountriesVsMod97 ?? 0)}x, with a rule ${dec(r.ruleCountriesVsMod97 ?? 0)}x,`,
    `DE with a SYNTHETIC method per bank code ${dec(r.germanSyntheticMethodsVsMod97 ?? 0)}x (the synthetic context assigns Bundesbank method codes by a hash of the`,
    'bank code; it is not the real assignment, it only exercises the method code path the LMDB registry will switch on).',
    '',
    '**Generation, ours only** (ibantools and iban have no generator; faker is not installed). Per iteration 5,000 rows, countries round-robin:',
    '',
    table(
      ['country class', 'countries', 'mean ms per 5,000', 'rme', 'IBANs/s'],
      micro.generation.map((g) => [
        g.task,
        String(g.countries),
        dec(g.meanMs),
        `±${dec(g.rmePercent, 1)} %`,
        int(g.itemsPerSecond),
      ]),
    ),
  ].join('\n');
}

function restSection(rest: RestResult | undefined): string {
  if (rest === undefined) return '## 2. REST load\n\nNot run.';
  const s = rest.settings;
  const rows = rest.servers.flatMap((server) =>
    server.runs.map((run) => [
      server.server,
      runKey(run),
      int(run.reqPerSec),
      int(run.ibansPerSec),
      dec(run.p50Ms),
      dec(run.p99Ms),
      String(run.errors),
      String(run.non2xx),
      dec(run.serverCores),
      int(cpuMicros(run.serverCores, run.reqPerSec)),
      run.clientCores === null ? 'n/a' : dec(run.clientCores),
      `${dec(run.machineBusyCores)} (${dec(run.stealCores)})`,
    ]),
  );
  const memory = rest.servers.map((server) => [
    server.server,
    `${server.memoryIdle.rssMiB} MiB`,
    `${server.memoryAfter.rssMiB} MiB`,
    `${server.memoryAfter.hwmMiB} MiB`,
    `${int(server.requestBytes)} B / ${int(server.responseBytes)} B`,
    `${server.sanityValid} / ${s.ibansPerRequest}`,
  ]);
  return [
    '## 2. REST load: POST /api/v1/validate against the wire limit and the node:http peer',
    '',
    `${s.distinctBodies} distinct bodies of ${s.ibansPerRequest} IBANs, cycled per connection; ${s.connections} connections. The IBANs are what ibanqa`,
    'generates (one seeded /generate per country, interleaved so every body mixes countries; real bank codes where the registry',
    `knows the banks). Four servers up at once; each warmed with ${s.warmupSeconds} s of autocannon (discarded), then ${s.rounds} rounds of ${s.seconds} s`,
    'wrk -t1 (autocannon where wrk is missing), the servers in turn within each round, same bodies:',
    '- **ibanqa** as its own process (`node --import tsx src/main.ts`), x-api-key = the `unlimited` demo key (metering on: every request',
    '  reserves and durably commits its API credits and BIC reveals in LMDB before the answer).',
    '- **bare uWS, the limit** (bench/bare-uws-server.ts): the same uWS build reads each body in full and answers with the exact status,',
    '  headers and body bytes ibanqa returned for that body (captured once before the load). What it spends is the HTTP work any server',
    '  must do for these answers; ibanqa / limit is the share of the wire ibanqa reaches.',
    '- **the fair peer** (bench/fair-peer-server.ts): node:http, JSON.parse, ibantools (isValidIBAN, extractIBAN), a Map of the same bank',
    '  data, row objects and JSON.stringify: the same bytes as ibanqa (checked for every body before it listens); no auth, no metering.',
    '- **the small-answer peer** (bench/baseline-server.ts): node:http parses the same body and answers `[{iban, valid}]` with',
    '  ibantools.isValidIBAN: no auth, no metering, no bank data.',
    'Server cores = server process CPU seconds / wall seconds, so CPU µs per request compares across a busy and a quiet machine;',
    'machine busy = all CPU of the VM in that window (/proc/stat), so busy minus server minus client is what other processes took.',
    '',
    table(
      [
        'server',
        'client',
        'req/s',
        'IBANs/s',
        'p50 ms',
        'p99 ms',
        'errors',
        'non-2xx',
        'server cores',
        'server CPU µs/request',
        'client cores',
        'machine busy (steal) cores',
      ],
      rows,
    ),
    '',
    fourWayTable(rest),
    '',
    `Ratio ibanqa / peer (req/s): ${Object.entries(rest.ratios)
      .map(([client, ratio]) => `${client} ${dec(ratio)}x`)
      .join(', ')} (target >= ${restTargets.vsBaseline}x).`,
    `Share of the bare uWS limit (req/s): ${Object.entries(rest.limitShares ?? {})
      .map(([client, share]) => `${client} ${dec(share * 100, 1)} %`)
      .join(', ')} (target >= ${dec(restTargets.limitShare * 100, 0)} %).`,
    '',
    table(
      [
        'server',
        'RSS idle',
        'RSS after load',
        'peak RSS (VmHWM)',
        'request / response body',
        'sanity request: valid rows',
      ],
      memory,
    ),
    '',
    'RSS is the server process (/proc/<pid>/status VmRSS, VmHWM), worker threads included. A baseline sanity count under 100 comes from',
    'countries ibantools rejects (§1), not from bad IBANs.',
  ].join('\n');
}

/**
 * Server CPU µs per request of the four servers, round by round (they alternate within a round), and what the
 * targets compare: the fair peer's CPU per request over ibanqa's (>= 4x), ibanqa's req/s as a share of the limit's.
 */
function fourWayTable(rest: RestResult): string {
  const servers = [serverNames.ibanqa, serverNames.fair, serverNames.peer, serverNames.limit];
  const runsOf = (name: string) =>
    rest.servers.find((server) => server.server === name)?.runs ?? [];
  const keys = runsOf(serverNames.ibanqa).map((run) => runKey(run));
  const micros = (name: string, key: string) => {
    const run = runsOf(name).find((candidate) => runKey(candidate) === key);
    return run === undefined ? undefined : cpuMicros(run.serverCores, run.reqPerSec);
  };
  const cpuOf = (name: string, key: string) => {
    const value = micros(name, key);
    return value === undefined ? 'n/a' : int(value);
  };
  // On a busy machine the servers do not get a core each, so req/s shares drift; CPU per request does not.
  const cpuShare = (key: string) => {
    const ours = micros(serverNames.ibanqa, key);
    const limit = micros(serverNames.limit, key);
    return ours === undefined || limit === undefined || ours === 0
      ? 'n/a'
      : `${dec((limit / ours) * 100, 1)} %`;
  };
  return table(
    [
      'run',
      ...servers.map((name) => `${name}: CPU µs/request`),
      `fair peer CPU / ibanqa CPU (target >= ${restTargets.fairCpuRatio}x)`,
      `ibanqa / limit req/s (target >= ${dec(restTargets.limitShare * 100, 0)} %)`,
      'limit CPU / ibanqa CPU per request',
    ],
    keys.map((key) => [
      key,
      ...servers.map((name) => cpuOf(name, key)),
      rest.fairCpuRatios?.[key] === undefined ? 'n/a' : `${dec(rest.fairCpuRatios[key])}x`,
      rest.limitShares[key] === undefined
        ? 'n/a'
        : `${dec((rest.limitShares[key] ?? 0) * 100, 1)} %`,
      cpuShare(key),
    ]),
  );
}

/** Server CPU per unit of work, in µs. */
export function cpuMicros(cores: number, unitsPerSecond: number): number {
  return unitsPerSecond > 0 ? (cores / unitsPerSecond) * 1e6 : 0;
}

/** Throughput if the server had one core to itself at the measured CPU cost per item. */
export function oneCoreCeiling(cores: number, itemsPerSecond: number): number {
  return cores > 0 ? itemsPerSecond / cores : 0;
}

function profileSection(profile: RestProfile | undefined): string {
  if (profile === undefined) return '## 5. Where the REST time goes\n\nNot run.';
  const requests = profile.load.reqPerSec * profile.load.seconds;
  const rows = (list: RestProfile['byFile']) =>
    list
      .slice(0, 12)
      .map((share) => [
        share.name.replace(/\|/g, '\\|'),
        int(share.ms),
        `${dec(share.percent, 1)} %`,
        dec(requests > 0 ? (share.ms * 1000) / requests : 0, 1),
      ]);
  return [
    '## 5. Where the REST time goes (V8 CPU profile of the service)',
    '',
    `bench/profile-rest.ts: the service under \`node --cpu-prof\`, ${profile.load.client} -c${profile.load.connections} for ${dec(profile.load.seconds, 1)} s after a warm-up`,
    `(${int(profile.load.reqPerSec)} req/s under the profiler). Self time of the main thread inside the load window: ${int(profile.busyMs)} ms busy`,
    `of ${int(profile.load.seconds * 1000)} ms. Native work is charged to the JS function that called it (JSON.stringify, uWS res.end and its socket write).`,
    ...(profile.threads === undefined
      ? []
      : [
          `The whole process in the same window (/proc, profiler overhead included): main thread ${dec(profile.threads.mainUsPerRequest, 1)} µs per request,`,
          `every other thread (LMDB's writer, V8's GC and compiler helpers, libuv) ${dec(profile.threads.otherUsPerRequest, 1)} µs.`,
        ]),
    '',
    table(['file', 'self ms', 'share of busy', 'µs per request'], rows(profile.byFile)),
    '',
    table(['function', 'self ms', 'share of busy', 'µs per request'], rows(profile.byFunction)),
  ].join('\n');
}

/** Several connections beating one stream by this factor means a per-stream limit, not client CPU. */
const perStreamLimitGain = 1.2;

/** One stream vs several connections from one process: tells client CPU apart from per-stream limits. */
function streamNote(grpc: GrpcResult): string[] {
  const single = grpc.runs.find((run) => run.clientProcesses === 1 && run.streamsPerProcess === 1);
  const multi = grpc.runs.find((run) => run.clientProcesses === 1 && run.streamsPerProcess > 1);
  if (single === undefined || multi === undefined || single.ibansPerSec === 0) return [];
  const gain = multi.ibansPerSec / single.ibansPerSec;
  const verdictText =
    gain >= perStreamLimitGain
      ? 'so a single stream is limited per stream, not by client CPU: each batch waits for its durable commit and the server reads at' +
        ' most 16 batches ahead (limits.streamMessagesQueuedMax; its HTTP/2 receive window, 1 MiB, no longer binds). Harness clients should' +
        ' spread load over several connections.'
      : `a change of ${dec((gain - 1) * 100, 0)} %: in this run the limit was not per stream but elsewhere (CPU on the shared machine).`;
  return [
    `One client process with ${multi.streamsPerProcess} connections made ${int(multi.ibansPerSec)} IBANs/s vs ${int(single.ibansPerSec)} with one (x${dec(gain)}),`,
    verdictText,
  ];
}

function grpcSection(grpc: GrpcResult | undefined): string {
  if (grpc === undefined) return '## 3. gRPC ValidateStream load\n\nNot run.';
  const s = grpc.settings;
  const rows = grpc.runs.map((run) => [
    String(run.clientProcesses),
    String(run.streamsPerProcess),
    int(run.ibansPerSec),
    int(run.batchesPerSec),
    run.clientCores.map((c) => dec(c)).join(' + '),
    dec(run.serverCores),
    int(cpuMicros(run.serverCores, run.batchesPerSec)),
    int(oneCoreCeiling(run.serverCores, run.ibansPerSec)),
    `${dec(run.machineBusyCores)} (${dec(run.stealCores)})`,
    `${run.serverMemoryAfter.rssMiB} MiB`,
    `${dec(run.validShare * 100, 1)} %`,
    run.errors.join('; ') || '0',
  ]);
  return [
    '## 3. gRPC ValidateStream load',
    '',
    `Each client process (bench/lib/grpc-client.ts, grpc-js) opens ValidateStream calls with x-api-key metadata, each on its own connection,`,
    `and keeps ${s.window} batches of ${int(s.batchSize)} IBANs in flight per stream; ${s.warmupSeconds} s warm-up, ${s.seconds} s counted. One service process for all shapes.`,
    'Client cores are process.cpuUsage() of each client over its measured window; server and machine cores as in §2. The one-core',
    'ceiling is IBANs/s divided by server cores: what the measured CPU cost allows with one free core (grpc-js and validation share one thread).',
    '',
    ...streamNote(grpc),
    '',
    table(
      [
        'client processes',
        'streams (connections) each',
        'IBANs/s',
        'batches/s',
        'client cores (each)',
        'server cores',
        'server CPU µs/batch',
        'one-core ceiling IBANs/s',
        'machine busy (steal) cores',
        'server RSS after',
        'valid verdicts',
        'errors',
      ],
      rows,
    ),
  ].join('\n');
}

function poolSection(pool: PoolResult | undefined): string {
  if (pool === undefined) return '## 4. Pool threshold\n\nNot run.';
  const none = (rows: number | null) => (rows === null ? 'no measured size' : `${int(rows)} rows`);
  const objects = pool.cells.map((c) => [
    int(c.rows),
    String(c.repetitions),
    dec(c.inlineMs),
    dec(c.poolLatencyMs),
    dec(c.poolMainThreadMs),
    dec(c.structuredCloneMs),
    int(c.inlineRowsPerSec),
    int(c.poolPipelinedRowsPerSec),
  ]);
  const strings = pool.cells.map((c) => [
    int(c.rows),
    dec(c.inlineJsonMs),
    dec(c.jsonPoolLatencyMs),
    dec(c.jsonPoolMainThreadMs),
    int(c.inlineJsonRowsPerSec),
    int(c.jsonPoolPipelinedRowsPerSec),
  ]);
  return [
    '## 4. Pool threshold (piscina vs inline)',
    '',
    `Op ${pool.op}, input ${pool.input}; ${pool.threads} pool threads (the config default on this machine).`,
    'inline = op.run on the main thread (the event loop is blocked that long); pool = one task in flight, round trip;',
    'main-thread = event-loop active time per pool task (dispatch + receiving the result); pipelined = one task in flight per thread.',
    '',
    '**As the service runs today** (src/pool/pool.ts createPool + PoolRunner, the worker returns row objects):',
    '',
    table(
      [
        'rows',
        'reps',
        'inline ms',
        'pool ms',
        'pool main-thread ms',
        'structuredClone of the output ms',
        'inline rows/s',
        'pool pipelined rows/s',
      ],
      objects,
    ),
    '',
    `Crossovers (holding for every larger size too): pool within 25 % of inline latency from ${none(pool.latencyCrossoverRows)};`,
    `pipelined pool out-produces inline from ${none(pool.throughputCrossoverRows)}; pool main-thread time under half of inline from ${none(pool.loopReliefCrossoverRows)}.`,
    '',
    '**Alternative measured for comparison** (bench/lib/json-worker.ts: same op, same pool options, the worker returns `JSON.stringify(output)`;',
    'compared with inline run + JSON.stringify, which the REST front pays anyway):',
    '',
    table(
      [
        'rows',
        'inline + stringify ms',
        'JSON pool ms',
        'JSON pool main-thread ms',
        'inline rows/s',
        'JSON pool pipelined rows/s',
      ],
      strings,
    ),
    '',
    `Crossovers: latency within 25 % from ${none(pool.json.latencyCrossoverRows)}; throughput from ${none(pool.json.throughputCrossoverRows)};`,
    `main-thread relief (under half) from ${none(pool.json.loopReliefCrossoverRows)}. Configured poolThresholdRows: ${int(pool.configuredThresholdRows)}.`,
  ].join('\n');
}

export function renderResults(all: AllResults): string {
  return [
    '# ibanqa benchmarks: results',
    '',
    'Written by `npm run bench` (bench/run.ts) from bench/results/*.json; the Machine section says when and at which commit each driver last ran. Do not edit by hand:',
    're-run the bench, or `node --import tsx bench/run.ts --report` to re-render from the JSON files.',
    '',
    machineSection(all),
    '',
    summarySection(all),
    '',
    microSection(all.micro),
    '',
    restSection(all.rest),
    '',
    grpcSection(all.grpc),
    '',
    poolSection(all.pool),
    '',
    profileSection(all.profile),
    '',
    shortfallSection(all),
    '',
  ].join('\n');
}

/** Re-renders the main report; sections other drivers own (between markers) are carried over unchanged. */
export function writeResultsMd(all: AllResults): string {
  const kept = existsSync(resultsMdPath) ? markedSections(readFileSync(resultsMdPath, 'utf8')) : [];
  writeFileSync(resultsMdPath, [renderResults(all).trimEnd(), ...kept].join('\n\n') + '\n');
  return resultsMdPath;
}
