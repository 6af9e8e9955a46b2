// Goal: three nodes on one database are one service for credits, under load, behind a load balancer and through a
// kill -9. 64 concurrent clients spread over the nodes on one Starter key are served at most its API-credit and
// BIC-reveal allowances, each acknowledged credit is in the ledger and, once settled, served + remaining equals
// the allowance; the same holds through nginx, which spreads requests over all three nodes; a node killed with
// SIGKILL under load loses no acknowledged debit, and no idempotent US routing run is lost or doubled: at the kill
// every saved run is paid and every paid run saved, and after a retry of every request_id each is paid exactly once.
// Method: three real service processes (src/main.ts) with their own ports and data directories, IBANQA_DATABASE_URL
// naming one scratch database. The clients count what each 200 served (one API credit per IBAN, one BIC reveal per
// row that shows a bank unlocked, a run its quote: README "Plans and metering"), the allowances are the README's plan
// table, and the ledger and the saved runs are read from credit_usage and idempotency with plain SQL on a connection
// of its own. The assertions hold with or without credit leases: nothing is compared before the nodes that could
// hold credits are stopped or settled.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { call } from '../helpers/service.js';
import {
  accountIdOf,
  createKeyThroughCli,
  ledgerOf,
  startCluster,
  type Cluster,
  type LedgerReading,
} from '../helpers/cluster.js';
import { startNginx } from '../helpers/nginx.js';
import {
  assertServes,
  convergeMs,
  importThroughCli,
  oenbRows,
  readyz,
  waitForVersion,
} from '../helpers/registry-publication.js';
import type { ServiceProcess } from '../helpers/service-process.js';

/** README "Plans and metering": Starter per calendar month. */
const starter = { api_calls: 2_000, bic_reveals: 200 } as const;
/** README "Plans and metering": the 24h Pass. */
const pass24h = { api_calls: 100, bic_reveals: 40 } as const;
const CLIENTS = 64;
/** Clients sending US routing runs in the kill test, each on a key of its own. */
const RUN_CLIENTS = 8;
/** Published example IBAN (ECBS): Commerzbank, a bank the embedded registry knows, so a paid key sees its BIC. */
const KNOWN = 'DE89370400440532013000';
/** The same with a wrong check digit: invalid, reveals nothing, still one API credit. */
const INVALID = 'DE89370400440532013001';
/** ABA routing numbers with valid checksums (Federal Reserve Banks' own). */
const ROUTING = ['011000015', '021000021', '026009593'];

interface Served {
  api_calls: number;
  bic_reveals: number;
  /** Requests per upstream, as nginx's X-Upstream named them. */
  readonly upstreams: Map<string, number>;
}

const served = (): Served => ({ api_calls: 0, bic_reveals: 0, upstreams: new Map() });

function ibans(): string[] {
  const count = 1 + ((randomBytes(1)[0] as number) % 8);
  return Array.from({ length: count }, (_, i) => (i % 3 === 2 ? INVALID : KNOWN));
}

/** Books one validate answer: credits by the rows the client saw, never by what the service says it charged. */
function book(into: Served, list: readonly string[], rows: any[]): void {
  into.api_calls += list.length;
  into.bic_reveals += rows.filter(
    (row) => row.bank_match === 'matched' && row.premium_fields_locked !== true,
  ).length;
}

/** Validates of 1-8 IBANs until refused (429); then single IBANs until one of those is refused too. */
async function meteredClient(base: string, key: string, into: Served): Promise<void> {
  let single = false;
  for (;;) {
    const list = single ? [KNOWN] : ibans();
    const reply = await call(base, '/validate', { key, body: { ibans: list } });
    const upstream = reply.headers.get('x-upstream');
    if (upstream !== null) into.upstreams.set(upstream, (into.upstreams.get(upstream) ?? 0) + 1);
    if (reply.status === 429) {
      if (single) return;
      single = true;
      continue;
    }
    assert.equal(reply.status, 200, reply.text);
    book(into, list, reply.body);
  }
}

/** How long the kill test's load runs, and when in it the kill lands. */
const LOAD_MS = 2_000;
const KILL_AT_MS = 1_000;
/**
 * The kill is aimed, as in test/reliability/crash-durability.test.ts: the clients here are slower than the
 * nodes, so a kill between their requests usually finds nothing in flight (the first run of this test: 0 of 581
 * credits). Heavy requests go to the victim alone and the kill follows KILL_DELAY_MS later: bulk datasets of
 * HEAVY_ROWS rows (a worker thread's start plus the rows: seconds) and runs of HEAVY_NUMBERS routing numbers.
 */
const HEAVY_ROWS = 10_000;
const HEAVY_NUMBERS = 1_000;
/** Two of each: the pool of one thread queues at most one task (threads², README), a third bulk would be 503. */
const HEAVY_REQUESTS = 2;
const KILL_DELAY_MS = 20;
const newRequestId = () => `${Date.now()}-${randomBytes(16).toString('hex')}`;

/** Which nodes a client may use: all of them, or the survivors once the kill has been sent. */
const reachable = { killed: undefined as ServiceProcess | undefined };
function nodeFor(index: number): ServiceProcess {
  const live = nodes().filter((node) => node !== reachable.killed);
  return live[index % live.length] as ServiceProcess;
}

interface Acks {
  /** API credits of validates answered 200. */
  acknowledged: number;
  /** API credits of validates that got no answer: in flight on the node that died. */
  inFlight: number;
}

/** Validates on the unlimited key (it never refuses) until stopped; a lost answer is booked as in flight. */
async function loadClient(index: number, key: string, acks: Acks, stopped: () => boolean) {
  for (let i = index; !stopped(); i++) {
    const list = ibans();
    const reply = await call(nodeFor(i).base, '/validate', { key, body: { ibans: list } }).catch(
      () => null,
    );
    if (reply === null) {
      acks.inFlight += list.length;
      continue;
    }
    assert.equal(reply.status, 200, `validate: ${reply.text}`);
    acks.acknowledged += list.length;
  }
}

interface Run {
  /** The key it runs on: each run client's own, so each client's 200s are compared with its own ledger row. */
  readonly key: string;
  readonly body: { routing_numbers: string[]; max_credits: number; request_id: string };
  /** Answers that ran it (replayed: false); more than one would be a run done twice. */
  ran: number;
  rows?: unknown;
}

/** Books one answer to a run: 200 always; a first execution charges its quote, a replay the same rows. */
function bookRun(run: Run, reply: Awaited<ReturnType<typeof call>>): void {
  assert.equal(reply.status, 200, `run ${run.body.request_id}: ${reply.text}`);
  if (reply.body.replayed === false) {
    run.ran++;
    assert.equal(reply.body.charged_credits, run.body.max_credits, 'a run charges its quote');
  }
  if (run.rows === undefined) run.rows = reply.body.rows;
  else
    assert.deepEqual(reply.body.rows, run.rows, 'every answer to one request_id is the same run');
}

/** Quoted US routing runs, each request_id sent to two nodes at once (one of them the victim until it dies). */
async function runClient(
  index: number,
  key: string,
  quote: number,
  runs: Run[],
  stopped: () => boolean,
) {
  while (!stopped()) {
    const run: Run = {
      key,
      body: { routing_numbers: ROUTING, max_credits: quote, request_id: newRequestId() },
      ran: 0,
    };
    runs.push(run);
    const targets = [
      nodeFor(index),
      reachable.killed === undefined ? nodes()[2] : nodeFor(index + 1),
    ];
    const replies = await Promise.all(
      targets.map((node) =>
        call((node as ServiceProcess).base, '/us/routing/run', { key, body: run.body }).catch(
          () => null,
        ),
      ),
    );
    for (const reply of replies) if (reply !== null) bookRun(run, reply);
  }
}

/** Heavy requests to the victim alone, booked as the light ones are (a bulk row is one API credit). */
function heavyLoad(
  victim: ServiceProcess,
  keys: { validates: string; runs: string },
  acks: Acks,
  runs: Run[],
  quote: number,
) {
  const bulk = Array.from({ length: HEAVY_REQUESTS }, async () => {
    const reply = await call(victim.base, '/bulk-dataset', {
      key: keys.validates,
      body: { country: 'DE', quantity: HEAVY_ROWS },
    }).catch(() => null);
    if (reply === null) acks.inFlight += HEAVY_ROWS;
    else {
      assert.equal(reply.status, 200, reply.text.slice(0, 500));
      acks.acknowledged += HEAVY_ROWS;
    }
  });
  const numbers = Array.from(
    { length: HEAVY_NUMBERS },
    (_, i) => `0110${String(i).padStart(5, '0')}`,
  );
  const heavyRuns = Array.from({ length: HEAVY_REQUESTS }, async () => {
    const run: Run = {
      key: keys.runs,
      body: { routing_numbers: numbers, max_credits: quote, request_id: newRequestId() },
      ran: 0,
    };
    runs.push(run);
    const reply = await call(victim.base, '/us/routing/run', {
      key: keys.runs,
      body: run.body,
    }).catch(() => null);
    if (reply !== null) bookRun(run, reply);
  });
  return Promise.all([...bulk, ...heavyRuns]);
}

/** Reads a moment apart until two agree, and how many at most: see settledReading. */
const SETTLE_READ_GAP_MS = 250;
const SETTLE_READS_MAX = 40;

/**
 * A reading once the dead node's last statements are over: one it sent just before SIGKILL still runs and commits
 * on its server backend after the process is gone, so the first read after the exit can be early. Reads until two
 * reads a moment apart agree.
 */
async function settledReading<T>(read: () => Promise<T>): Promise<T> {
  let last = await read();
  for (let reads = 0; reads < SETTLE_READS_MAX; reads++) {
    await sleep(SETTLE_READ_GAP_MS);
    const next = await read();
    if (JSON.stringify(next) === JSON.stringify(last)) return next;
    last = next;
  }
  throw new Error(`the reading kept changing: ${JSON.stringify(last)}`);
}

/** The request_ids of a key whose US routing run has a saved result, read from the idempotency table. */
async function savedRuns(key: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: cluster.database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ key: string }>(
      "SELECT key FROM idempotency WHERE key_id = $1 AND result IS NOT NULL AND key LIKE 'us_routing.run|%'",
      [accountIdOf(key)],
    );
    return rows.map((row) => row.key.slice('us_routing.run|'.length)).sort();
  } finally {
    await client.end();
  }
}

/** Credits quoted by the runs of `list` (a run charges its quote: max_credits). */
const quoted = (list: readonly Run[]) => list.reduce((sum, run) => sum + run.body.max_credits, 0);

let cluster: Cluster;
const nodes = (): readonly ServiceProcess[] => cluster.nodes;

async function usage(base: string, key: string) {
  const reply = await call(base, '/usage', { key });
  assert.equal(reply.status, 200, reply.text);
  return reply.body.credits;
}

/**
 * The ledger once settled: what each node still holds for the key (a running request's reservation, a lease)
 * has gone back. Polled through every node's /usage, read again from the table.
 */
async function settledLedger(key: string, kind: 'api_calls' | 'bic_reveals') {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const credits = await Promise.all(
      nodes()
        .filter(isAlive)
        .map((node) => usage(node.base, key)),
    );
    const ledger = await ledgerOf(cluster.database, key, kind);
    if (ledger.reserved === 0 || Date.now() > deadline) return { ledger, credits };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function isAlive(node: ServiceProcess): boolean {
  return node.child.process.exitCode === null && node.child.process.signalCode === null;
}

async function assertExact(key: string, got: Served, allowance: typeof starter | typeof pass24h) {
  for (const kind of ['api_calls', 'bic_reveals'] as const) {
    assert.ok(got[kind] <= allowance[kind], `${kind}: served ${got[kind]} of ${allowance[kind]}`);
    const { ledger, credits } = await settledLedger(key, kind);
    assert.deepEqual(ledger, { used: got[kind], reserved: 0 }, `${kind} in credit_usage`);
    for (const credit of credits) {
      assert.equal(credit[kind].allowance, allowance[kind]);
      assert.equal(
        got[kind] + credit[kind].remaining,
        allowance[kind],
        `${kind} served + remaining`,
      );
    }
  }
}

describe('three nodes on one database', () => {
  before(async () => {
    cluster = await startCluster('cluster', 3, { IBANQA_POOL_THREADS: '1' });
  });
  after(async () => {
    await cluster?.dispose();
  });

  test('64 clients over three nodes on one Starter key: never more than the allowance, every credit in the ledger', async (t) => {
    const got = served();
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) =>
        meteredClient((nodes()[i % 3] as ServiceProcess).base, cluster.keys.starter, got),
      ),
    );
    t.diagnostic(
      `served ${got.api_calls} API credits and ${got.bic_reveals} BIC reveals in ${Date.now() - started} ms`,
    );
    await assertExact(cluster.keys.starter, got, starter);
  });

  test('through nginx (HTTP/1.1, keep-alive to the nodes): requests reach all three nodes, metering exact', async (t) => {
    const nginx = await startNginx(nodes().map((node) => new URL(node.base).host));
    try {
      const got = served();
      await Promise.all(
        Array.from({ length: CLIENTS }, () => meteredClient(nginx.base, cluster.keys.pass24h, got)),
      );
      t.diagnostic(`requests per upstream: ${JSON.stringify([...got.upstreams])}`);
      assert.deepEqual(
        [...got.upstreams.keys()].sort(),
        nodes()
          .map((node) => new URL(node.base).host)
          .sort(),
        'every node answered through nginx',
      );
      await assertExact(cluster.keys.pass24h, got, pass24h);
    } finally {
      await nginx.stop();
    }
  });

  test('a registry import through node A (its CLI, --database-url) is served by B and C within 10 s', async (t) => {
    const [a, b, c] = nodes() as [ServiceProcess, ServiceProcess, ServiceProcess];
    const before = await readyz(b);
    const summary = await importThroughCli(a, cluster.database.url);
    const imported = Date.now();
    assert.equal(summary.row_count, oenbRows);
    assert.equal(summary.registry.version, before.registry.version + 1);
    for (const node of [b, c]) {
      await waitForVersion(node, summary.registry.version, imported + convergeMs);
      t.diagnostic(
        `${new URL(node.base).host} served it ${Date.now() - imported} ms after the CLI exited`,
      );
      await assertServes(node, cluster.keys.unlimited, summary);
    }
  });

  test('kill -9 of one node under load: no acknowledged debit lost, no idempotent run lost or doubled', async (t) => {
    const [validateKey, heavyRunKey] = [cluster.keys.unlimited, cluster.keys.business];
    const victim = nodes()[2] as ServiceProcess;
    // Each run client has a key of its own (made as an operator makes one), so its 200s meet its own ledger row.
    const runKeys = await Promise.all(
      Array.from({ length: RUN_CLIENTS }, () =>
        createKeyThroughCli(cluster.database.url, 'business'),
      ),
    );
    const allRunKeys = [...runKeys, heavyRunKey];
    const quote = await call(nodes()[0]!.base, '/us/routing/quote', {
      key: heavyRunKey,
      body: { routing_numbers: ROUTING },
    });
    assert.equal(quote.status, 200, quote.text);
    const runLedger = (key: string) => ledgerOf(cluster.database, key, 'api_calls');
    const before = {
      validates: await ledgerOf(cluster.database, validateKey, 'api_calls'),
      runs: new Map<string, LedgerReading>(
        await Promise.all(allRunKeys.map(async (key) => [key, await runLedger(key)] as const)),
      ),
    };
    const charged = async (key: string) =>
      (await runLedger(key)).used - (before.runs.get(key) as LedgerReading).used;
    const acks: Acks = { acknowledged: 0, inFlight: 0 };
    const runs: Run[] = [];
    let stopped = false;
    const load = Promise.all([
      ...Array.from({ length: 24 }, (_, i) => loadClient(i, validateKey, acks, () => stopped)),
      ...runKeys.map((key, i) => runClient(i, key, quote.body.max_credits, runs, () => stopped)),
    ]).finally(() => (stopped = true)); // a failed client stops the others too
    load.catch(() => undefined); // awaited below; the failure is reported there
    await new Promise((resolve) => setTimeout(resolve, KILL_AT_MS));
    const heavy = heavyLoad(
      victim,
      { validates: validateKey, runs: heavyRunKey },
      acks,
      runs,
      HEAVY_NUMBERS,
    );
    await new Promise((resolve) => setTimeout(resolve, KILL_DELAY_MS));
    reachable.killed = victim;
    victim.child.process.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, LOAD_MS - KILL_AT_MS));
    stopped = true;
    await Promise.all([load, heavy]);
    await victim.stop(); // already dead: waits for its exit

    const validates = await settledReading(() =>
      ledgerOf(cluster.database, validateKey, 'api_calls'),
    );
    const debited = validates.used - before.validates.used;
    t.diagnostic(
      `validates: ${acks.acknowledged} credits acknowledged, ${acks.inFlight} in flight at the kill, ${debited} in the ledger`,
    );
    assert.ok(debited >= acks.acknowledged, `acknowledged ${acks.acknowledged}, ledger ${debited}`);
    assert.ok(
      debited <= acks.acknowledged + acks.inFlight,
      `ledger ${debited} above acknowledged + in flight`,
    );

    // At the kill, per client key: the runs paid are exactly the runs saved (a result and its debit are one
    // transaction), and every run a client got a 200 for is among them.
    let savedAtKill = 0;
    for (const key of allRunKeys) {
      const mine = runs.filter((run) => run.key === key);
      const { saved, paid } = await settledReading(async () => ({
        saved: await savedRuns(key),
        paid: await charged(key),
      }));
      const answered = mine
        .filter((run) => run.rows !== undefined)
        .map((run) => run.body.request_id);
      assert.deepEqual(
        answered.filter((id) => !saved.includes(id)),
        [],
        'every run answered 200 before the kill is saved',
      );
      assert.equal(
        paid,
        quoted(mine.filter((run) => saved.includes(run.body.request_id))),
        `key ${accountIdOf(key)}: the debits at the kill are exactly the quotes of the saved runs`,
      );
      assert.ok(
        paid >= quoted(mine.filter((run) => run.rows !== undefined)),
        `key ${accountIdOf(key)}: every run answered 200 is paid`,
      );
      savedAtKill += saved.length;
    }

    // Every request_id again on a survivor: answered, and run by whichever node ran it, once.
    const unanswered = runs.filter((run) => run.rows === undefined).length;
    const retried = Date.now();
    await Promise.all(
      runs.map(async (run) =>
        bookRun(
          run,
          await call(nodes()[0]!.base, '/us/routing/run', { key: run.key, body: run.body }),
        ),
      ),
    );
    t.diagnostic(
      `runs: ${runs.length} over ${allRunKeys.length} keys, ${savedAtKill} saved at the kill, ${unanswered} unanswered before the retry, retried in ${Date.now() - retried} ms`,
    );
    // A run whose answer died with the node was done there once: its retry replays (replayed: true).
    assert.deepEqual(
      runs.filter((run) => run.ran > 1).map((run) => run.body.request_id),
      [],
      'no run done twice',
    );
    for (const key of allRunKeys) {
      const mine = runs.filter((run) => run.key === key);
      assert.equal(
        await charged(key),
        quoted(mine),
        `key ${accountIdOf(key)}: each of its ${mine.length} runs paid exactly once`,
      );
      assert.equal((await savedRuns(key)).length, mine.length, 'every run saved');
    }
    t.diagnostic(`runs: ${quoted(runs)} credits quoted, each debited once`);
  });
});
