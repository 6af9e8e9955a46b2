import { grpcTargets } from '../grpc-load.js';
import { microTargets } from '../micro.bench.js';
import { restTargets } from '../rest-load.js';
import { dec, int } from './format.js';
import type { AllResults } from './all-results.js';

/** Two ratios within this factor of each other are "about the same" on this noisy machine. */
const similarRatios = 1.15;
/** A server process above this many cores was the bottleneck; below it, something else was (client, contention). */
const saturatedCores = 0.9;

function microShortfalls(all: AllResults): string[] {
  const micro = all.micro;
  if (micro === undefined) return [];
  const r = micro.ratios;
  const out: string[] = [];
  if ((r.engineVsIbantools ?? 0) < microTargets.engineVsIbantools) {
    out.push(
      `- **Engine vs ibantools ${dec(r.engineVsIbantools ?? 0)}x < ${microTargets.engineVsIbantools}x.** Check the rme column first: on this shared VM a single run can swing by 2x.`,
    );
  }
  if ((r.nationalVsMod97 ?? 0) > microTargets.nationalVsMod97Max) {
    const noRule = r.noRuleCountriesVsMod97 ?? 0;
    const withRule = r.ruleCountriesVsMod97 ?? 0;
    out.push(
      `- **Full validation costs ${dec(r.nationalVsMod97 ?? 0)}x bare mod 97 (target <= ${microTargets.nationalVsMod97Max}x).** The breakdown in §1 splits it:`,
      `  countries without a rule pay ${dec(noRule)}x (input scan, per-country structure table, the verdict object, bank/branch slices),`,
      `  countries with a rule ${dec(withRule)}x. ${withRule > noRule * similarRatios ? 'The national pass is the larger part: validateIban hands each rule a `slice` of the BBAN and most rules make a second pass over it (another mod 97 or a weighted sum); fusing that pass into the IBAN pass is the way to close the gap.' : withRule * similarRatios < noRule ? 'The verdict around the checks, not the rules, is the larger part.' : 'Both classes pay about the same over mod 97, so the common work around the checks (scan, structure, verdict), not the national rules, makes the gap.'}`,
    );
  }
  const german = micro.germanBankCodes;
  const methods =
    german === undefined
      ? 'an unknown number'
      : `${int(german.withMethod)} of ${int(german.total)}`;
  out.push(
    `- **German check methods: ${methods} DE bank codes in the service directory carry one.** A DE row whose bank has no method is`,
    `  \`not_checked\` (and random synthetic bank codes are never known), so the mixed list barely touches the German code path. With methods`,
    `  (timed with a SYNTHETIC assignment, §1) DE validation costs ${dec(r.germanSyntheticMethodsVsMod97 ?? 0)}x bare mod 97: once the registry supplies real`,
    '  methods, DE-heavy traffic with real bank codes will validate markedly slower than these mixed-list figures.',
  );
  return out;
}

/** The heaviest files of the §5 profile, in words. */
function profileBullet(all: AllResults): string[] {
  const files = all.profile?.byFile;
  if (files === undefined || files.length === 0) return [];
  const top = files
    .slice(0, 5)
    .map((share) => `${share.name} ${dec(share.percent, 0)} %`)
    .join(', ');
  const domain = files
    .filter((share) => share.name.startsWith('src/domain/'))
    .reduce((sum, share) => sum + share.percent, 0);
  return [
    `  The profile (§5) puts the main thread's time in ${top}; the IBAN domain (src/domain) is ${dec(domain, 0)} % of it.`,
  ];
}

function restShortfalls(all: AllResults): string[] {
  const rest = all.rest;
  const ours = rest?.servers.find((server) => server.server === 'ibanqa');
  const peer = rest?.servers.find((server) => server.server.startsWith('baseline'));
  const best = ours?.runs.reduce((a, b) => (b.ibansPerSec > a.ibansPerSec ? b : a));
  if (rest === undefined || ours === undefined || best === undefined) return [];
  const out: string[] = [];
  const perRequestUs = best.reqPerSec > 0 ? (best.serverCores / best.reqPerSec) * 1e6 : 0;
  const budgetUs = 1e6 / (restTargets.ibansPerSecond / rest.settings.ibansPerRequest);
  if (best.ibansPerSec < restTargets.ibansPerSecond) {
    out.push(
      `- **REST reached ${int(best.ibansPerSec)} IBANs/s (${best.client}), ${dec((best.ibansPerSec / restTargets.ibansPerSecond) * 100, 0)} % of ${int(restTargets.ibansPerSecond)}.**`,
      `  The uWS front runs on one thread, so 1,000,000 IBANs/s = ${int(restTargets.ibansPerSecond / rest.settings.ibansPerRequest)} requests/s leaves ${int(budgetUs)} µs of server CPU`,
      `  per 100-IBAN request; we spend about ${int(perRequestUs)} µs (server ${dec(best.serverCores)} cores at ${int(best.reqPerSec)} req/s).`,
      `  ${best.serverCores >= saturatedCores ? 'The server was saturated, so this is its real ceiling here.' : `The server was NOT saturated (${dec(best.serverCores)} cores; machine ${dec(best.machineBusyCores)} cores busy): the load client and other processes on the VM took the rest, so the ceiling is somewhat higher than measured.`}`,
      `  The response is ${int(ours.responseBytes)} bytes for ${rest.settings.ibansPerRequest} rows (request ${int(ours.requestBytes)} bytes): each row carries bank fields`,
      '  (swift_code, bank_name, bank_match, bank_intelligence for paid keys).',
      ...profileBullet(all),
      '  The REST floor section below (bench/rest-floor.ts) sets each target against what this answer alone costs to',
      '  compute and send, with no key or metering: above every budget on this machine.',
    );
  }
  const ratio = Math.max(...Object.values(rest.ratios));
  if (peer !== undefined && ratio < restTargets.vsBaseline) {
    out.push(
      `- **ibanqa / baseline ${dec(ratio)}x < ${restTargets.vsBaseline}x.** The baseline is cheap apart from ibantools itself: no key lookup, no metering, no bank`,
      `  lookup, and a ${int(peer.responseBytes)}-byte answer against our ${int(ours.responseBytes)}. Its cost per request is dominated by ibantools (~${int(1e6 / ((all.micro?.validation.find((v) => v.task.startsWith('ibantools'))?.itemsPerSecond ?? 1) / 100))} µs per 100 IBANs`,
      '  in §1), ours by writing the larger answer (§5). The 3x target holds only if our per-request work shrinks.',
    );
  }
  return out;
}

function grpcShortfalls(all: AllResults): string[] {
  const grpc = all.grpc;
  const best = grpc?.runs.reduce((a, b) => (b.ibansPerSec > a.ibansPerSec ? b : a));
  if (grpc === undefined || best === undefined) return [];
  if (best.ibansPerSec >= grpcTargets.ibansPerSecond) return perStreamShortfall(grpc.runs);
  const perBatchUs = best.batchesPerSec > 0 ? (best.serverCores / best.batchesPerSec) * 1e6 : 0;
  const clients = best.clientCores.reduce((sum, cores) => sum + cores, 0);
  const others = Math.max(0, best.machineBusyCores - best.serverCores - clients);
  const why =
    best.serverCores >= saturatedCores
      ? 'The server was saturated: this is its ceiling here.'
      : `Neither side saturated a core; the machine was ${dec(best.machineBusyCores)} cores busy of ${all.machine?.nproc ?? '?'}, of which other processes took about ${dec(others)}` +
        ` (steal ${dec(best.stealCores)}). The stream is then latency-bound (a larger window or more streams may help) or starved by other work.`;
  return [
    `- **gRPC reached at best ${int(best.ibansPerSec)} IBANs/s (${best.clientProcesses} client process${best.clientProcesses > 1 ? 'es' : ''} x ${best.streamsPerProcess} stream${best.streamsPerProcess > 1 ? 's' : ''}), target ${int(grpcTargets.ibansPerSecond)}.**`,
    `  Server ${dec(best.serverCores)} cores = ${int(perBatchUs)} µs per 1,000-IBAN batch (protobuf decode of 1,000 strings, admission and metering,`,
    `  validation, encode of 2,000 enums); clients ${dec(clients)} cores together. ${why}`,
  ];
}

/** Several streams reach the target but one does not: say why one stream is latency-bound. */
function perStreamShortfall(runs: NonNullable<AllResults['grpc']>['runs']): string[] {
  const single = runs.find((run) => run.clientProcesses === 1 && run.streamsPerProcess === 1);
  if (single === undefined || single.ibansPerSec >= grpcTargets.ibansPerSecond) return [];
  return [
    `- **One gRPC stream reached ${int(single.ibansPerSec)} IBANs/s (target ${int(grpcTargets.ibansPerSecond)}); more streams reach it.**`,
    `  One stream is latency-bound, not CPU-bound (server ${dec(single.serverCores)} cores): each batch is answered after its debit's`,
    '  durable commit (RELIABILITY.md, about 0.4 ms per lmdb-js commit), and the server reads at most 16 batches ahead',
    "  (limits.streamMessagesQueuedMax). Its HTTP/2 receive window is 1 MiB (Node's 64 KiB default held about 2.4 batches);",
    '  a harness that needs more than one stream gives should open several (each on its own connection).',
  ];
}

function poolShortfalls(all: AllResults): string[] {
  const pool = all.pool;
  if (pool === undefined) return [];
  const at = pool.cells.find((cell) => cell.rows === pool.configuredThresholdRows);
  if (at === undefined) return [];
  const objectsJustified =
    pool.throughputCrossoverRows !== null &&
    pool.throughputCrossoverRows <= pool.configuredThresholdRows;
  const jsonJustified =
    pool.json.throughputCrossoverRows !== null &&
    pool.json.throughputCrossoverRows <= pool.configuredThresholdRows;
  if (objectsJustified) return [];
  return [
    `- **The ${int(pool.configuredThresholdRows)}-row pool threshold does not pay in throughput; it pays in responsiveness.** Workers now return`,
    '  serialized JSON/CSV (src/render/body.ts; the "JSON string" rows of §4), and the pool-relief section below measures what the threshold',
    '  buys for other requests while large ones run. The object-returning figures, kept for comparison:',
    `  at ${int(at.rows)} rows the round trip is`,
    `  ${dec(at.poolLatencyMs)} ms vs ${dec(at.inlineMs)} ms inline, and the main thread is still busy ${dec(at.poolMainThreadMs)} ms per task: receiving`,
    `  ${int(at.rows)} row objects by structured clone costs a large part of generating them (structuredClone of the output: ${dec(at.structuredCloneMs)} ms).`,
    `  The pipelined pool out-produces inline generation at ${pool.throughputCrossoverRows === null ? 'no measured size' : `${int(pool.throughputCrossoverRows)} rows and up`}; on 2 vCPUs the`,
    '  two workers and the main thread share two cores.',
    `  With the worker returning one JSON string instead (measured in §4), the main thread spends ${dec(at.jsonPoolMainThreadMs)} ms per ${int(at.rows)}-row task`,
    `  instead of ${dec(at.inlineJsonMs)} ms inline, and its pipelined throughput beats inline ${pool.json.throughputCrossoverRows === null ? 'at no measured size in this run' : `from ${int(pool.json.throughputCrossoverRows)} rows`}:`,
    `  ${jsonJustified ? `with that change, ${int(pool.configuredThresholdRows)} rows is a defensible threshold.` : pool.json.throughputCrossoverRows === null ? 'the event loop is relieved, but on 2 busy vCPUs nothing is gained in throughput; compare a quieter run before changing the threshold.' : `even then the measured crossover lies above ${int(pool.configuredThresholdRows)} rows.`}`,
  ];
}

export function shortfallSection(all: AllResults): string {
  const bullets = [
    ...microShortfalls(all),
    ...restShortfalls(all),
    ...grpcShortfalls(all),
    ...poolShortfalls(all),
  ];
  return [
    '## Where we fall short, and why',
    '',
    ...(bullets.length > 0 ? bullets : ['Every target was met in this run.']),
  ].join('\n');
}
