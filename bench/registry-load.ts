/**
 * Registry load driver:
 * 1. every shared publisher file imported (both snapshots where two exist, over the embedded default): REST
 *    POST /bank-intelligence/lookup and /search latency, measured per request by a keep-alive client in this
 *    process against the service in its own process;
 * 2. scale: the same lookup against a registry of 10,000 and of 1,000,000 SYNTHETIC records, in-process at the
 *    store (where growth would show) and over REST.
 * Writes bench/results/registry-load.json and the "Registry" section of bench/RESULTS.md (between markers).
 * Usage: node --import tsx bench/registry-load.ts [--scale-records 1000000] [--requests 4000] | --report (re-render from the JSON)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { writeSection } from './lib/sections.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeRecord } from '../src/registry/importers/common.js';
import type { ParsedSnapshot, RegistryRecord } from '../src/registry/record.js';
import { ensureEmbeddedDefault } from '../src/registry/store/embedded.js';
import { importPath } from '../src/registry/store/import-file.js';
import { RegistryStore } from '../src/registry/store/registry-store.js';
import { searchRegistry } from '../src/registry/store/search.js';
import { dec, int, table, verdict } from './lib/format.js';
import { startIbanqa, type IbanqaProcess } from './lib/ibanqa-process.js';
import {
  interleavedRounds,
  sequentialRounds,
  type Latency,
  type Rounds,
} from './lib/latency-client.js';
import { spawnTs, waitForOutput } from './lib/child.js';
import { bicOf, SCALE_STRIDE, STORE_LOOKUPS } from './registry-store-latency.js';
import { resultsMdPath } from './lib/report.js';
import { readResult, round, writeResult } from './lib/results.js';
import { sharedPath } from '../test/helpers/shared.js';

export const registryTargets = { lookupP99Ms: 1, searchP99Ms: 10, scaleGrowthMax: 1.5 } as const;
/**
 * Shared files in publisher order: [source, path, snapshot date or undefined, delta]. The Bundesbank release of
 * 2025-06-09 is left out: the embedded Bundesbank table (2025-09-08) already outdates it.
 */
const sharedFiles: readonly [string, string, string | undefined, boolean][] = [
  ['bundesbank-blz', 'bundesbank-blz/2025-09-08/bundesbank.txt', '2025-09-08', false],
  ['oenb-sepa', 'oenb-sepa-verzeichnis/2025-09-15/at.csv', undefined, false],
  ['oenb-sepa', 'oenb-sepa-verzeichnis/2025-09-22/at.csv', undefined, false],
  ['six-bankenstamm', 'six-bankenstamm/2025-09-29/ch.xlsx', undefined, false],
  ['six-bankenstamm', 'six-bankenstamm/2025-10-06/ch.xlsx', undefined, false],
  ['nbb-bank-codes', 'nbb-bank-codes/2019-07-03/nbb.xlsx', undefined, false],
  ['nbb-bank-codes', 'nbb-bank-codes/2025-08-04/nbb.xlsx', undefined, false],
  ['gleif-lei', 'gleif/20180901-gleif-concatenated-file-lei2-Top10.xml', undefined, false],
  ['gleif-lei', 'gleif/20240505-0000-gleif-goldencopy-lei2-intra-day.json', '2024-05-05', true],
  ['fedach', 'fedach/2016-02-03/FedACHdir.txt', undefined, false],
  ['fedach', 'fedach/2018-12-04/FedACHdir.txt', undefined, false],
  ['fedwire', 'fedwire/2016-02-04/fpddir.txt', undefined, false],
  ['fedwire', 'fedwire/2018-12-03/fpddir.txt', undefined, false],
];

/** Sequential requests from this process to the service in its own, over a lean client (bench/lib/latency-client.ts). */
function restRounds(
  service: IbanqaProcess,
  path: string,
  bodies: readonly string[],
  requests: number,
): Promise<Rounds> {
  return sequentialRounds(
    service.httpPort,
    `/api/v1${path}`,
    { 'x-api-key': service.unlimitedKey },
    bodies,
    requests,
  );
}

/** Identifiers that exist in the imported data: BICs, LEIs, national codes, one no_match in ten. */
function lookupBodies(store: RegistryStore): string[] {
  const bodies: string[] = [];
  const sample = (
    source: string,
    pick: (record: RegistryRecord) => { value: string; type: string } | null,
  ) => {
    const snapshot = store.source(source)?.current_snapshot_id;
    if (snapshot === undefined) return;
    const records = store.snapshotAsParsed(snapshot).records;
    for (
      let i = 0;
      i < records.length && bodies.length < 10_000;
      i += Math.max(1, Math.floor(records.length / 150))
    ) {
      const identifier = pick(records[i] as RegistryRecord);
      if (identifier !== null) bodies.push(JSON.stringify(identifier));
    }
  };
  sample('bundesbank-blz', (r) =>
    r.bic === null
      ? { value: `DE:${r.fields.blz}`, type: 'bank_code' }
      : { value: r.bic, type: 'bic' },
  );
  sample('oenb-sepa', (r) => (r.lei === null ? null : { value: r.lei, type: 'lei' }));
  sample('six-bankenstamm', (r) => ({ value: r.fields.IID ?? '', type: 'ch_iid' }));
  sample('fedach', (r) => ({ value: r.record_key, type: 'routing_number' }));
  sample('gleif-lei', (r) => ({ value: r.record_key, type: 'lei' }));
  const withMisses = bodies.flatMap((body, index) =>
    index % 9 === 0 ? [body, JSON.stringify({ value: 'ZZZZZZZZXXX', type: 'bic' })] : [body],
  );
  return withMisses;
}

const searchQueries = [
  'sparkasse',
  'volksbank',
  'raiffeisen',
  'commerzbank',
  'deutsche bank',
  'bank',
  'credit union',
  'first national',
  'kantonalbank',
  'berlin',
  'wien',
  'zurich',
  'ing',
  'bnp',
  'federal savings',
];

const oneIbanBody = JSON.stringify({ ibans: ['DE89370400440532013000'] });

async function restPart(requests: number): Promise<RestPart> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-registry-bench-'));
  const store = RegistryStore.openWriter(dataDir);
  const started = performance.now();
  ensureEmbeddedDefault(store);
  for (const [source, path, date, delta] of sharedFiles)
    importPath(store, source, sharedPath(path), {
      ...(date === undefined ? {} : { snapshotDate: date }),
      delta,
    });
  const importSeconds = (performance.now() - started) / 1000;
  const records = store
    .sources()
    .reduce((sum, source) => sum + (store.snapshot(source.current_snapshot_id)?.row_count ?? 0), 0);
  const lookups = lookupBodies(store);
  await store.close();
  const service = await startIbanqa({ IBANQA_DATA_DIR: dataDir });
  try {
    const lookup = await restRounds(service, '/bank-intelligence/lookup', lookups, requests);
    const search = await restRounds(
      service,
      '/bank-intelligence/search',
      searchQueries.map((query) => JSON.stringify({ query, limit: 25 })),
      Math.round(requests / 2),
    );
    // The floor of the REST path on this machine: a metered one-IBAN validate touches no registry index.
    const floor = await restRounds(service, '/validate', [oneIbanBody], requests);
    await service.stop();
    return {
      records,
      sources: sharedFiles.length,
      importSeconds: round(importSeconds, 1),
      lookup,
      search,
      floor,
      processDurability: await processDurabilityRounds(dataDir, lookups, requests),
    };
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Lookup and floor again, same data, with the ledger committing to the OS page cache only: the commit wait's share. */
async function processDurabilityRounds(
  dataDir: string,
  lookups: readonly string[],
  requests: number,
): Promise<{ lookup: Rounds; floor: Rounds }> {
  // A fresh ledger (the registry stays) so the service creates and prints its demo keys again.
  rmSync(join(dataDir, 'accounts'), { recursive: true, force: true });
  const service = await startIbanqa({
    IBANQA_DATA_DIR: dataDir,
    IBANQA_LEDGER_DURABILITY: 'process',
  });
  try {
    return {
      lookup: await restRounds(service, '/bank-intelligence/lookup', lookups, requests),
      floor: await restRounds(service, '/validate', [oneIbanBody], requests),
    };
  } finally {
    await service.stop();
  }
}

/** SYNTHETIC scale records: BLZ 9xxxxxxx (no German clearing area starts with 9), BIC SYNTDE + base-36 index. */
function scaleSnapshot(count: number): ParsedSnapshot {
  const records = new Array<RegistryRecord>(count);
  for (let i = 0; i < count; i++) {
    const bic = bicOf(i);
    const tag = bic.slice(6);
    const blz = `9${String(i).padStart(7, '0')}`;
    records[i] = makeRecord({
      source_id: 'synthetic-scale',
      record_key: blz,
      record_type: 'bank',
      country_code: 'DE',
      legal_name: `Synthetic Scale Bank ${tag}`,
      bic,
      domestic_codes: [{ scheme: 'de_blz', value: blz }],
      fields: { blz, name: `Synthetic Scale Bank ${tag}`, bic },
    });
  }
  const source = {
    source_id: 'synthetic-scale',
    publisher: 'SYNTHETIC benchmark data',
    title: 'synthetic scale records',
    license: 'synthetic',
    version: null,
  };
  return {
    source_id: 'synthetic-scale',
    source,
    snapshot_date: '2026-01-01',
    records,
    row_count: count,
    ignored_fields: [],
  };
}

/** Scale over REST: 3,000 warm-up lookups of absent BICs, then 3 rounds x 3,000 distinct BICs, fewer than the 10,000 records of the small registry. */
const SCALE_REST_WARMUP = 3_000;
const SCALE_REST_ROUNDS = 3;
const SCALE_REST_REQUESTS = 3_000;

/** Store lookups in a fresh read-only process (bench/registry-store-latency.ts explains why). */
async function storeLatencyInChild(dataDir: string, count: number): Promise<Latency> {
  const child = spawnTs('bench/registry-store-latency.ts', [dataDir, String(count)]);
  try {
    const line = await waitForOutput(child, /^store-latency (.+)$/m, 300_000);
    return JSON.parse(line[1] as string) as Latency;
  } finally {
    await child.stop();
  }
}

interface ScaleRegistry {
  readonly dataDir: string;
  readonly records: number;
  readonly importSeconds: number;
  readonly oneSearchMs: number;
  readonly atStore: Latency;
}

async function buildScaleRegistry(count: number): Promise<ScaleRegistry> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-registry-scale-'));
  const store = RegistryStore.openWriter(dataDir);
  const started = performance.now();
  store.import(scaleSnapshot(count));
  const importSeconds = (performance.now() - started) / 1000;
  const searchStarted = performance.now();
  searchRegistry(store, { query: `synthetic scale bank ${bicOf(count - 1).slice(6)}`, limit: 25 });
  const searchMs = performance.now() - searchStarted;
  await store.close();
  const atStore = await storeLatencyInChild(dataDir, count);
  return {
    dataDir,
    records: count,
    importSeconds: round(importSeconds, 1),
    oneSearchMs: round(searchMs, 2),
    atStore,
  };
}

/**
 * A service over 1,000,000 records builds its per-country bank maps from all of them before it listens: over the
 * bench's usual 30 s on 2026-11-24 (19:16 UTC, quiet machine), when the run failed there.
 */
const SCALE_START_MS = 180_000;

/**
 * Both registries served at once and timed in pairs (bench/lib/latency-client.ts interleavedRounds), so noise
 * on the shared VM falls on both sides alike. Every measured lookup is of a BIC not looked up before (nothing
 * from the record or view caches); the warm-up looks up BICs that exist in neither registry.
 */
async function pairedScaleRest(
  small: ScaleRegistry,
  large: ScaleRegistry,
): Promise<[Rounds, Rounds]> {
  const services = [
    await startIbanqa({ IBANQA_DATA_DIR: small.dataDir }),
    await startIbanqa({ IBANQA_DATA_DIR: large.dataDir }, [], SCALE_START_MS),
  ];
  try {
    const warmupBodies = Array.from({ length: SCALE_REST_WARMUP }, (_, i) =>
      JSON.stringify({ value: `ZZZZDE${bicOf(i).slice(6)}`, type: 'bic' }),
    );
    const targets = [small, large].map((registry, index) => {
      const service = services[index] as IbanqaProcess;
      const bodies = Array.from({ length: SCALE_REST_ROUNDS * SCALE_REST_REQUESTS }, (_, i) =>
        JSON.stringify({ value: bicOf((i * SCALE_STRIDE) % registry.records), type: 'bic' }),
      );
      return {
        port: service.httpPort,
        path: '/api/v1/bank-intelligence/lookup',
        headers: { 'x-api-key': service.unlimitedKey },
        bodies,
        warmupBodies,
      };
    });
    const [smallRounds, largeRounds] = await interleavedRounds(targets, SCALE_REST_REQUESTS, {
      warmup: SCALE_REST_WARMUP,
      rounds: SCALE_REST_ROUNDS,
    });
    return [smallRounds as Rounds, largeRounds as Rounds];
  } finally {
    for (const service of services) await service.stop();
  }
}

async function scalePart(largeCount: number): Promise<{ small: ScalePart; large: ScalePart }> {
  const small = await buildScaleRegistry(10_000);
  const large = await buildScaleRegistry(largeCount);
  try {
    const [smallRest, largeRest] = await pairedScaleRest(small, large);
    const part = (registry: ScaleRegistry, rest: Rounds): ScalePart => ({
      records: registry.records,
      importSeconds: registry.importSeconds,
      atStore: registry.atStore,
      overRest: rest.median,
      overRestRounds: rest.rounds.map((r) => r.latency),
      oneSearchMs: registry.oneSearchMs,
    });
    return { small: part(small, smallRest), large: part(large, largeRest) };
  } finally {
    for (const registry of [small, large])
      rmSync(registry.dataDir, { recursive: true, force: true });
  }
}

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  return index < 0 ? fallback : Number(process.argv[index + 1]);
}

interface RestPart {
  readonly records: number;
  readonly sources: number;
  readonly importSeconds: number;
  readonly lookup: Rounds;
  readonly search: Rounds;
  readonly floor: Rounds;
  /** The same lookup and floor against the same data with IBANQA_LEDGER_DURABILITY=process (absent in older results). */
  readonly processDurability?: { readonly lookup: Rounds; readonly floor: Rounds };
}

interface ScalePart {
  readonly records: number;
  readonly importSeconds: number;
  readonly atStore: Latency;
  readonly overRest: Latency;
  /** Every paired round (overRest is the median one by p99). */
  readonly overRestRounds?: readonly Latency[];
  readonly oneSearchMs: number;
}

function roundsRow(what: string, rounds: Rounds, target: string, met: boolean | null): string[] {
  const gc = rounds.rounds
    .map((round) => `${round.clientGc.count} / ${dec(round.clientGc.totalMs, 1)} ms`)
    .join('; ');
  return [
    what,
    `${rounds.rounds.length} x ${int(rounds.median.requests)}`,
    dec(rounds.median.p50Ms, 3),
    dec(rounds.median.p99Ms, 3),
    rounds.rounds.map((round) => dec(round.latency.p99Ms, 3)).join(' / '),
    `${dec(rounds.median.over1MsShare * 100, 1)} %`,
    gc,
    target,
    met === null ? '' : verdict(met),
  ];
}

const lookupRow = (what: string, rounds: Rounds) =>
  roundsRow(
    what,
    rounds,
    `p99 < ${registryTargets.lookupP99Ms} ms`,
    rounds.median.p99Ms < registryTargets.lookupP99Ms,
  );
const floorRow = (what: string, rounds: Rounds) => roundsRow(what, rounds, '(reference)', null);

function processDurabilityRows(rest: RestPart): string[][] {
  const rounds = rest.processDurability;
  if (rounds === undefined) return [];
  return [
    lookupRow('POST /bank-intelligence/lookup, IBANQA_LEDGER_DURABILITY=process', rounds.lookup),
    floorRow('floor: POST /validate, IBANQA_LEDGER_DURABILITY=process', rounds.floor),
  ];
}

function renderSection(data: { rest: RestPart; small: ScalePart; large: ScalePart }): string {
  return [...restLines(data.rest), ...scaleLines(data.small, data.large)].join('\n');
}

function restLines(rest: RestPart): string[] {
  return [
    '## Registry: bank-intelligence lookup and search (bench/registry-load.ts)',
    '',
    `Every shared publisher file imported over the embedded default (${rest.sources} files, ${int(rest.records)} current records, ` +
      `imported in ${dec(rest.importSeconds, 1)} s). The service runs in its own process; the client in the bench process sends ` +
      'requests one after another over one keep-alive connection (bench/lib/latency-client.ts: pre-encoded requests, one reused ' +
      'read buffer), after a warm-up of 3,000 requests, in three rounds; the table gives the round with the median p99. ' +
      'Lookup identifiers cycle through BICs (a BIC shared by many bank codes answers 25 records, about 22 KB), BLZs, LEIs, CH IIDs, ' +
      'routing numbers and one no_match in ten.',
    '',
    table(
      [
        'what',
        'requests',
        'p50 ms',
        'p99 ms',
        'p99 per round',
        'over 1 ms',
        'client GC per round (count / total)',
        'target',
        'met',
      ],
      [
        lookupRow('POST /bank-intelligence/lookup (1 identifier)', rest.lookup),
        roundsRow(
          'POST /bank-intelligence/search (limit 25)',
          rest.search,
          `p99 < ${registryTargets.searchP99Ms} ms`,
          rest.search.median.p99Ms < registryTargets.searchP99Ms,
        ),
        floorRow('floor: POST /validate (1 IBAN, no registry index)', rest.floor),
        ...processDurabilityRows(rest),
      ],
    ),
    '',
    'What moved the lookup p99 from 2.4 ms (first measurement, 2026-11-22 morning) under 1 ms; each step was measured separately:',
    '- **The client was half the tail.** node:http in the bench process, right after the import, ran 51-64 collections per 5,000 ' +
      '22 KB answers (61-117 ms of pauses, up to 5.7 ms each): about as many as the requests it saw over 1 ms. The lean client ' +
      `ran ${rest.lookup.rounds.reduce((sum, round) => sum + round.clientGc.count, 0)} collections in the ${rest.lookup.rounds.length} lookup rounds above, and the bench process collects its ` +
      'import garbage before each round.',
    '- **Summary views are cached per registry version** (src/ops/bank-views.ts): frozen once per record object, so the JSON ' +
      "renderer reuses each record's serialized form. Server time for a 25-match lookup went from p50 0.30 to 0.15 ms.",
    '- **Usage counters were written coalesced** (at most 100 ms later) instead of one LMDB ' +
      'transaction and fsync per request: lookup p50 0.27 -> 0.22 ms, p99 0.55-0.7 -> 0.37-0.49 ms in the same runs. ' +
      'That step is undone on purpose: every keyed answer now waits for the LMDB commit of its debit, so a crash loses no ' +
      'acknowledged debit (RELIABILITY.md). On this VM one lmdb-js commit waits p50 0.4 ms and p99 4-6 ms (default ' +
      'overlappingSync; noMetaSync 0.3 / 4.6 ms; only noSync is fast, 0.04 / 0.2 ms, at the risk of a corrupt ledger ' +
      'after an OS crash), and a client that sends one request at a time pays it in full: that is what the lookup and ' +
      'floor rows carry over the p50 0.2 / p99 0.4 ms they had with coalesced writes. The last two rows run the same data ' +
      'with IBANQA_LEDGER_DURABILITY=process (commits to the OS page cache only, still answered after the commit; ' +
      'README, RELIABILITY.md): the commit wait is gone there.',
    '- **Warm-up:** the first 5,000 lookups after start ran with p99 1.2-1.8 ms while V8 was still compiling on 2 cores.',
    ...(rest.search.median.p99Ms < registryTargets.searchP99Ms
      ? []
      : [
          `- **Search p99 ${dec(rest.search.median.p99Ms, 1)} ms** is the generic query "bank" (one of the ${searchQueries.length} ` +
            `queries, so one request in ${searchQueries.length}): the name-matcher ranking (src/registry/store/search.ts) decodes every ` +
            'record holding the word and folds its names (nameWords) before it can rank the first 25, since an exact ' +
            'name may come last in index order. Not fixed yet: an index of folded names would find exact names first ' +
            'and let the scan stop at the limit.',
        ]),
    "Before that change, what was left over 1 ms was about 0.5 % of requests: the service's own minor collections (about 28 per 5,000 lookups, " +
      '2-3 ms each, --trace-gc) and the shared VM (a bare uWS server answering 22 KB after 0.15 ms of work has 0.1-0.2 % of ' +
      'requests over 1 ms with the same client).',
    '',
  ];
}

function scaleLines(small: ScalePart, large: ScalePart): string[] {
  const growthStore = large.atStore.p50Ms / small.atStore.p50Ms;
  // Over all paired rounds: the typical lookup (p50) and the average one (mean). The p99 of a round is the 30
  // slowest of 3,000 lookups, which the service's own minor GC pauses (2-3 ms, about 0.6 % of requests) and the
  // VM decide whatever the registry size: its per-round ratio is listed, not judged (see the text below).
  const roundsOf = (part: ScalePart) => part.overRestRounds ?? [part.overRest];
  const average = (values: readonly number[]) =>
    values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const growthRest50 =
    average(roundsOf(large).map((r) => r.p50Ms)) / average(roundsOf(small).map((r) => r.p50Ms));
  const growthRestMean =
    average(roundsOf(large).map((r) => r.meanMs)) / average(roundsOf(small).map((r) => r.meanMs));
  const p99Ratios = roundsOf(large).map(
    (r, index) => r.p99Ms / (roundsOf(small)[index]?.p99Ms ?? Number.NaN),
  );
  return [
    `Scale: BIC lookups in a registry of ${int(small.records)} vs ${int(large.records)} SYNTHETIC records ` +
      `(import ${dec(small.importSeconds, 1)} s vs ${dec(large.importSeconds, 1)} s). Every lookup is of a record not looked up before, so ` +
      'nothing comes from the decoded-record or view caches. Over REST both registries are served at once and timed in pairs, one ' +
      "lookup to each in turn (a shared VM's noise falls on both alike): 3,000 warm-up lookups of BICs neither holds, then 3 rounds of " +
      `3,000 distinct BICs; the table gives the median round by p99, and the p99 of every round follows. Tails here run higher than in ` +
      'the single-service table above: with two services answering in turn, each request finds the CPU caches warm with the other ' +
      `process, and both services' collections land in the same run. At the store ${int(STORE_LOOKUPS)} distinct ` +
      'BICs in a fresh process that opens the registry read-only as a pool worker does.',
    '',
    table(
      [
        'registry',
        'REST p50 ms',
        'REST p99 ms',
        'REST p99 per round',
        'store p50 ms',
        'store p99 ms',
      ],
      [small, large].map((part) => [
        int(part.records),
        dec(part.overRest.p50Ms, 3),
        dec(part.overRest.p99Ms, 3),
        (part.overRestRounds ?? []).map((r) => dec(r.p99Ms, 3)).join(' / '),
        dec(part.atStore.p50Ms, 4),
        dec(part.atStore.p99Ms, 4),
      ]),
    ),
    '',
    `Growth 10k -> 1M of the lookup request, over the paired rounds: ${dec(growthRest50, 2)}x at p50, ${dec(growthRestMean, 2)}x in the mean; ` +
      `target at most ${registryTargets.scaleGrowthMax}x: ${verdict(growthRest50 <= registryTargets.scaleGrowthMax && growthRestMean <= registryTargets.scaleGrowthMax)}. ` +
      `The p99 ratio per round was ${p99Ratios.map((ratio) => `${dec(ratio, 2)}x`).join(' / ')}: tails that swing both ways within one paired run ` +
      'come from GC pauses and the VM, not from the registry size, so they are shown and not judged. ' +
      `Inside it, the store lookup alone grows ${dec(growthStore, 2)}x at p50 (${dec(small.atStore.p50Ms * 1000, 0)} to ${dec(large.atStore.p50Ms * 1000, 0)} us): ` +
      'the B+tree is a level deeper and its pages no longer fit the CPU caches, so each cold lookup pays memory misses; that is a few ' +
      `microseconds of a request of about ${dec(small.overRest.p50Ms * 1000, 0)}.`,
    'LMDB B+trees make a lookup O(log n) page reads that stay in the page cache; the directory the IBAN operations read is',
    'a per-country Map built before the service listens, so validate and generate never touch LMDB per row (about 30 ns per bankOf).',
  ];
}

async function main(): Promise<void> {
  if (process.argv.includes('--report')) {
    // Re-render the section from the last run's JSON (after a change to the text only).
    const last = readResult<{ rest: RestPart; small: ScalePart; large: ScalePart }>(
      'registry-load',
    );
    if (last === undefined)
      throw new Error('no bench/results/registry-load.json yet: run the bench first');
    writeSection(resultsMdPath, 'registry-load', renderSection(last.data));
    return;
  }
  const requests = argument('--requests', 4_000);
  const scaleRecords = argument('--scale-records', 1_000_000);
  const rest = await restPart(requests);
  process.stdout.write(`shared sources: ${JSON.stringify(rest)}\n`);
  const { small, large } = await scalePart(scaleRecords);
  process.stdout.write(
    `10k: ${JSON.stringify(small)}\n${scaleRecords}: ${JSON.stringify(large)}\n`,
  );
  const data = { targets: registryTargets, rest, small, large };
  process.stdout.write(`wrote ${writeResult('registry-load', data)}\n`);
  writeSection(resultsMdPath, 'registry-load', renderSection(data));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `registry-load failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
