/**
 * One node on the PostgreSQL state (IBANQA_DATABASE_URL, credit leases on) against one node on the LMDB ledger, in
 * the same run: REST POST /validate (100 IBANs) and POST /generate (100 rows), wrk -t1 -c32, both nodes up at once
 * and measured in turn (the order flips each round) for `rounds` rounds, after a warm-up of each. Metering is on:
 * a Pro key, not the unlimited one, so every request reserves and commits against a capped allowance (the limit
 * arithmetic the unlimited key skips). Pro's 10,000 API credits would run out within a second of 100-credit
 * requests, so before either node starts its key's current period is seeded with GIFT_CREDITS of every kind given
 * back (its usage row starts at -GIFT_CREDITS, written into each ledger's own store): the key never runs out while
 * every request still goes through the capped path.
 *
 * Per run: req/s, p50/p99, the node's CPU per request (/proc of its process, every thread), the CPU per request of
 * the PostgreSQL backends connected to the bench's database (pg_stat_activity's pids, /proc) and of every postgres
 * process on the machine (shared with whatever else runs: for the LMDB node it is the noise floor), and the ratios
 * PG/LMDB per route (medians over the rounds).
 * Target (stated here, never asserted in tests): the PostgreSQL node within 10 % of the LMDB node per node, i.e.
 * req/s at least 0.90 of LMDB's and node CPU per request at most 1.10 of LMDB's, on each route.
 *
 * Run: `node --import tsx bench/pg-ledger.ts [seconds per run, default 10]` (writes bench/results/pg-ledger.json,
 * prints a Markdown table). Needs wrk and the machine's PostgreSQL (IBANQA_TEST_POSTGRES_URL as for the tests).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { AccountStore } from '../src/accounts/account-store.js';
import { periodOf } from '../src/accounts/periods.js';
import { creditKinds } from '../src/accounts/plans.js';
import { countryFormats } from '../src/domain/iban/index.js';
import { noRegistryContext } from '../src/domain/iban/national/types.js';
import { PgKeyStore } from '../src/postgres/keys.js';
import { migrateDatabase } from '../src/postgres/migrate.js';
import { openPool } from '../src/postgres/pool.js';
import { createScratchDatabase, type ScratchDatabase } from '../test/helpers/scratch-database.js';
import { spawnTs, waitForOutput, type Child } from './lib/child.js';
import { table } from './lib/format.js';
import { runWrk, type PostTarget } from './lib/http-load.js';
import { chunks, mixedIbans } from './lib/iban-list.js';
import { wrkPath } from './lib/machine.js';
import { cpuBetween, cpuOf, postgresPids } from './lib/postgres-cpu.js';
import { freePort, machineCoresBetween, machineCpu, procCpuSeconds } from './lib/proc.js';
import { median, round, writeResult } from './lib/results.js';

export const pgLedgerSettings = {
  ibansPerRequest: 100,
  generateRows: 100,
  distinctBodies: 100,
  connections: 32,
  warmupSeconds: 2,
  seconds: Number(process.argv[2] ?? 10),
  rounds: 3,
  plan: 'pro',
} as const;

export const pgLedgerTargets = {
  /** PostgreSQL node req/s over LMDB node req/s, per route: at least this. */
  reqPerSecRatioMin: 0.9,
  /** PostgreSQL node CPU per request over LMDB node CPU per request, per route: at most this. */
  serverCpuRatioMax: 1.1,
} as const;

/** Credits of every kind the bench key's period starts with (a usage of minus this), far beyond any run: every kind,
 *  since a paid key's /validate also spends BIC reveals (Pro: 2,000), and once they ran out the answers would lock
 *  those fields and the runs would measure another path. */
const GIFT_CREDITS = 1e12;

/** A node's first start imports the embedded registry into its fresh data directory: 30 s on an idle machine was
 *  not enough at load average 11 on the 2-core development machine; BENCH_START_TIMEOUT_MS sets another. */
const firstStartMs = Number(process.env.BENCH_START_TIMEOUT_MS ?? 180_000);

const ledgers = ['postgres', 'lmdb'] as const;
type Ledger = (typeof ledgers)[number];
const routes = ['validate', 'generate'] as const;
type Route = (typeof routes)[number];
type Log = (line: string) => void;

interface BenchNode {
  readonly ledger: Ledger;
  readonly child: Child;
  readonly port: number;
  readonly key: string;
}

export interface LedgerRun {
  readonly round: number;
  readonly route: Route;
  readonly ledger: Ledger;
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly serverCpuUsPerRequest: number;
  /** The backends connected to the bench's database (the PostgreSQL node's pool and its follower). */
  readonly pgBackendCpuUsPerRequest: number;
  /** Every postgres process of the machine, whoever's queries they ran. */
  readonly pgAllCpuUsPerRequest: number;
  /** Requests per database transaction of the PostgreSQL node (about: see `transactions`); null for LMDB. */
  readonly requestsPerTransaction: number | null;
  readonly machineBusyCores: number;
  readonly stealCores: number;
  readonly loadAverage: readonly number[];
}

/** A Pro key in the data directory's LMDB, its current period seeded with the gift; before the node opens it. */
async function seedLmdb(dataDir: string, now: Date): Promise<string> {
  const store = AccountStore.open(dataDir);
  try {
    const created = store.createKey(pgLedgerSettings.plan, now, 'bench pg-ledger');
    const usageKey = `${created.id}|${periodOf(created, now).start.toISOString()}`;
    await store
      .subDatabase<Record<string, number>>('usage')
      .put(usageKey, Object.fromEntries(creditKinds.map((kind) => [kind, -GIFT_CREDITS])));
    return created.key;
  } finally {
    await store.close();
  }
}

/** The same in the shared database: migrated, a Pro key, its credit_usage row seeded with the gift. */
async function seedPostgres(databaseUrl: string, now: Date): Promise<string> {
  await migrateDatabase(databaseUrl);
  const pool = openPool(databaseUrl, 1);
  try {
    const created = await new PgKeyStore(pool).createKey(
      pgLedgerSettings.plan,
      now,
      'bench pg-ledger',
    );
    const used = creditKinds.map((kind) => `used_${kind}`);
    await pool.query(
      `INSERT INTO credit_usage (account_id, period_start, ${used.join(', ')})
       VALUES ($1, $2, ${used.map(() => '$3').join(', ')})`,
      [created.id, periodOf(created, now).start.toISOString(), -GIFT_CREDITS],
    );
    return created.key;
  } finally {
    await pool.end();
  }
}

async function startNode(
  ledger: Ledger,
  dataDir: string,
  key: string,
  databaseUrl: string | null,
): Promise<BenchNode> {
  const port = await freePort();
  const child = spawnTs('src/main.ts', [], {
    IBANQA_DATA_DIR: dataDir,
    IBANQA_HOST: '127.0.0.1',
    IBANQA_PORT: String(port),
    IBANQA_GRPC_PORT: String(await freePort()),
    IBANQA_LOG_LEVEL: 'warn',
    ...(databaseUrl === null ? {} : { IBANQA_DATABASE_URL: databaseUrl }),
  });
  try {
    await waitForOutput(child, /^ibanqa: REST /m, firstStartMs);
  } catch (error) {
    await child.stop();
    throw error;
  }
  return { ledger, child, port, key };
}

function bodiesOf(route: Route): string[] {
  const { ibansPerRequest, distinctBodies, generateRows } = pgLedgerSettings;
  if (route === 'validate')
    return chunks(mixedIbans(ibansPerRequest * distinctBodies, noRegistryContext), ibansPerRequest)
      .slice(0, distinctBodies)
      .map((list) => JSON.stringify({ ibans: list }));
  return Array.from({ length: distinctBodies }, (_, index) =>
    JSON.stringify({
      country: countryFormats[index % countryFormats.length]?.code ?? 'DE',
      quantity: generateRows,
      seed: `pg-ledger-${index}`,
    }),
  );
}

function targetOf(node: BenchNode, route: Route, bodies: readonly string[]): PostTarget {
  return { port: node.port, path: `/api/v1/${route}`, headers: { 'x-api-key': node.key }, bodies };
}

/** One request first: 200 with one row per IBAN (or generated row), or the figures price something else. */
async function sanityCheck(target: PostTarget): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${target.port}${target.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    body: target.bodies[0],
  });
  const text = await response.text();
  const rows = (response.status === 200 ? JSON.parse(text) : null) as unknown[] | null;
  if (!Array.isArray(rows) || rows.length !== 100)
    throw new Error(
      `${target.path} on port ${target.port}: HTTP ${response.status} ${text.slice(0, 200)}`,
    );
}

/** The pids of the backends connected to the bench's database now. */
async function backendPids(admin: pg.Client, database: string): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [database],
  );
  return rows.map((row) => row.pid);
}

/**
 * Transactions the database has counted so far (pg_stat_database). Backends report theirs at most once a second
 * while busy, so a run's count can lag by up to a second of its load: a diagnostic (how many requests one spend
 * carries), not a figure to compare closely.
 */
async function transactions(admin: pg.Client, database: string): Promise<number> {
  const { rows } = await admin.query<{ count: string }>(
    'SELECT xact_commit + xact_rollback AS count FROM pg_stat_database WHERE datname = $1',
    [database],
  );
  return Number(rows[0]?.count ?? 0);
}

async function measure(
  wrk: string,
  node: BenchNode,
  route: Route,
  bodies: readonly string[],
  round_: number,
  db: { admin: pg.Client; name: string },
): Promise<LedgerRun> {
  const { connections, seconds } = pgLedgerSettings;
  const backendsBefore = await backendPids(db.admin, db.name);
  const transactionsBefore = await transactions(db.admin, db.name);
  const before = {
    server: procCpuSeconds(node.child.pid),
    backends: cpuOf(backendsBefore),
    all: cpuOf(postgresPids()),
    machine: machineCpu(),
  };
  const started = performance.now();
  const figures = await runWrk(wrk, targetOf(node, route, bodies), connections, seconds);
  const wall = (performance.now() - started) / 1000;
  const backendsAfter = [
    ...new Set([...backendsBefore, ...(await backendPids(db.admin, db.name))]),
  ];
  const server = procCpuSeconds(node.child.pid) - before.server;
  const transactionsRun = (await transactions(db.admin, db.name)) - transactionsBefore;
  const machine = machineCoresBetween(before.machine, machineCpu(), wall);
  const us = (cpuSeconds: number) =>
    figures.requests > 0 ? Math.round((cpuSeconds * 1e6) / figures.requests) : 0;
  return {
    round: round_,
    route,
    ledger: node.ledger,
    reqPerSec: figures.reqPerSec,
    p50Ms: figures.p50Ms,
    p99Ms: figures.p99Ms,
    non2xx: figures.non2xx,
    errors: figures.errors,
    serverCpuUsPerRequest: us(server),
    pgBackendCpuUsPerRequest: us(cpuBetween(before.backends, cpuOf(backendsAfter))),
    pgAllCpuUsPerRequest: us(cpuBetween(before.all, cpuOf(postgresPids()))),
    requestsPerTransaction:
      node.ledger === 'postgres' && transactionsRun > 0
        ? round(figures.requests / transactionsRun, 1)
        : null,
    machineBusyCores: machine.busyCores,
    stealCores: machine.stealCores,
    loadAverage: loadavg().map((value) => round(value, 2)),
  };
}

export interface RouteSummary {
  readonly route: Route;
  readonly medians: Record<
    Ledger,
    Pick<
      LedgerRun,
      | 'reqPerSec'
      | 'p99Ms'
      | 'serverCpuUsPerRequest'
      | 'pgBackendCpuUsPerRequest'
      | 'pgAllCpuUsPerRequest'
    >
  >;
  /** PostgreSQL over LMDB, medians of the rounds. */
  readonly ratios: {
    readonly reqPerSec: number;
    readonly p99Ms: number;
    readonly serverCpuUsPerRequest: number;
    /** Node plus its database backends, per request: what a request of the PostgreSQL node costs in all. */
    readonly serverAndBackendCpuUsPerRequest: number;
  };
  readonly withinTarget: boolean;
}

function summarise(runs: readonly LedgerRun[], route: Route): RouteSummary {
  const mediansOf = (ledger: Ledger) => {
    const mine = runs.filter((run) => run.route === route && run.ledger === ledger);
    const of = (field: keyof LedgerRun) => median(mine.map((run) => run[field] as number));
    return {
      reqPerSec: of('reqPerSec'),
      p99Ms: of('p99Ms'),
      serverCpuUsPerRequest: of('serverCpuUsPerRequest'),
      pgBackendCpuUsPerRequest: of('pgBackendCpuUsPerRequest'),
      pgAllCpuUsPerRequest: of('pgAllCpuUsPerRequest'),
    };
  };
  const pgm = mediansOf('postgres');
  const lm = mediansOf('lmdb');
  const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 3) : Number.NaN);
  const ratios = {
    reqPerSec: ratio(pgm.reqPerSec, lm.reqPerSec),
    p99Ms: ratio(pgm.p99Ms, lm.p99Ms),
    serverCpuUsPerRequest: ratio(pgm.serverCpuUsPerRequest, lm.serverCpuUsPerRequest),
    serverAndBackendCpuUsPerRequest: ratio(
      pgm.serverCpuUsPerRequest + pgm.pgBackendCpuUsPerRequest,
      lm.serverCpuUsPerRequest,
    ),
  };
  return {
    route,
    medians: { postgres: pgm, lmdb: lm },
    ratios,
    withinTarget:
      ratios.reqPerSec >= pgLedgerTargets.reqPerSecRatioMin &&
      ratios.serverCpuUsPerRequest <= pgLedgerTargets.serverCpuRatioMax,
  };
}

function markdown(summaries: readonly RouteSummary[]): string {
  const rows = summaries.flatMap((summary) => [
    ...ledgers.map((ledger) => {
      const m = summary.medians[ledger];
      return [
        `/${summary.route}`,
        ledger === 'postgres' ? 'PostgreSQL (leases)' : 'LMDB',
        String(m.reqPerSec),
        String(m.p99Ms),
        String(m.serverCpuUsPerRequest),
        String(m.pgBackendCpuUsPerRequest),
        String(m.pgAllCpuUsPerRequest),
      ];
    }),
    [
      `/${summary.route}`,
      `**PG/LMDB** (${summary.withinTarget ? 'within' : 'outside'} 10 %)`,
      String(summary.ratios.reqPerSec),
      String(summary.ratios.p99Ms),
      String(summary.ratios.serverCpuUsPerRequest),
      `node+backends ${summary.ratios.serverAndBackendCpuUsPerRequest}`,
      '',
    ],
  ]);
  return table(
    [
      'route',
      'ledger',
      'req/s',
      'p99 ms',
      'node CPU µs/req',
      'PG backends µs/req',
      'all postgres µs/req',
    ],
    rows,
  );
}

type Bodies = Record<Route, string[]>;

/** Each node on each route: one checked request, then the warm-up. */
async function warmUp(wrk: string, nodes: readonly BenchNode[], bodies: Bodies, log: Log) {
  const { connections, warmupSeconds } = pgLedgerSettings;
  for (const route of routes)
    for (const node of nodes) {
      await sanityCheck(targetOf(node, route, bodies[route]));
      log(`pg-ledger: warm-up ${node.ledger} /${route}, ${warmupSeconds} s`);
      await runWrk(wrk, targetOf(node, route, bodies[route]), connections, warmupSeconds);
    }
}

/** Every round: each route, each node in turn, the order flipped each round (neither always runs second). */
async function measureRounds(
  wrk: string,
  nodes: readonly BenchNode[],
  bodies: Bodies,
  db: { admin: pg.Client; name: string },
  log: Log,
): Promise<LedgerRun[]> {
  const runs: LedgerRun[] = [];
  for (let round_ = 1; round_ <= pgLedgerSettings.rounds; round_++) {
    const order = round_ % 2 === 1 ? nodes : [...nodes].reverse();
    for (const route of routes)
      for (const node of order) {
        const m = await measure(wrk, node, route, bodies[route], round_, db);
        log(
          `pg-ledger: round ${round_} /${route} ${node.ledger}: ${m.reqPerSec} req/s, p99 ${m.p99Ms} ms, node ${m.serverCpuUsPerRequest} µs/req, PG backends ${m.pgBackendCpuUsPerRequest} µs/req, ${node.ledger === 'postgres' ? `≈${m.requestsPerTransaction ?? '-'} req/transaction, ` : ''}non-2xx ${m.non2xx}`,
        );
        runs.push(m);
      }
  }
  return runs;
}

function report(runs: readonly LedgerRun[], loadAverageAtStart: readonly number[], log: Log) {
  const summaries = routes.map((route) => summarise(runs, route));
  const result = {
    settings: pgLedgerSettings,
    targets: pgLedgerTargets,
    loadAverageAtStart,
    loadAverageAtEnd: loadavg().map((value) => round(value, 2)),
    runs,
    summaries,
  };
  log(`wrote ${writeResult('pg-ledger', result)}`);
  log(markdown(summaries));
  // Refused or failed answers price something else than a metered request: the figures above do not count.
  const failed = runs.filter((measured) => measured.non2xx > 0 || measured.errors > 0);
  if (failed.length > 0)
    throw new Error(`runs with answers that were not 200: ${JSON.stringify(failed)}`);
}

async function run(log: Log): Promise<void> {
  const wrk = wrkPath();
  if (wrk === null) throw new Error('wrk is needed (apt-get install -y wrk)');
  const loadAverageAtStart = loadavg().map((value) => round(value, 2));
  log(
    `pg-ledger: ${JSON.stringify(pgLedgerSettings)}; load average ${loadAverageAtStart.join(' ')}`,
  );
  const pgDir = mkdtempSync(join(tmpdir(), 'ibanqa-pg-ledger-pg-'));
  const lmdbDir = mkdtempSync(join(tmpdir(), 'ibanqa-pg-ledger-lmdb-'));
  const nodes: BenchNode[] = [];
  let database: ScratchDatabase | undefined;
  let admin: pg.Client | undefined;
  try {
    database = await createScratchDatabase('bench_pg_ledger');
    const now = new Date();
    const pgKey = await seedPostgres(database.url, now);
    const lmdbKey = await seedLmdb(lmdbDir, now);
    // One at a time: both import the embedded registry at their first start.
    nodes.push(await startNode('postgres', pgDir, pgKey, database.url));
    nodes.push(await startNode('lmdb', lmdbDir, lmdbKey, null));
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const bodies = { validate: bodiesOf('validate'), generate: bodiesOf('generate') };
    await warmUp(wrk, nodes, bodies, log);
    report(
      await measureRounds(wrk, nodes, bodies, { admin, name: database.name }, log),
      loadAverageAtStart,
      log,
    );
  } finally {
    await admin?.end();
    for (const node of nodes) await node.child.stop();
    await database?.drop();
    for (const dir of [pgDir, lmdbDir]) rmSync(dir, { recursive: true, force: true });
  }
}

await run(console.log);
