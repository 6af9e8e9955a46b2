// Goal: three nodes on one database are one service for credits, under load, behind a load balancer and through a
// kill -9. 64 concurrent clients spread over the nodes on one Starter key are served at most its API-credit and
// BIC-reveal allowances, each acknowledged credit is in the ledger and, once settled, served + remaining equals
// the allowance; the same holds through nginx, which spreads requests over all three nodes; a node killed with
// SIGKILL under load loses no acknowledged debit, and no idempotent US routing run is lost or run twice.
// Method: three real service processes (src/main.ts) with their own ports and data directories, IBANQA_DATABASE_URL
// naming one scratch database. The clients count what each 200 served (one API credit per IBAN, one BIC reveal per
// row that shows a bank unlocked: README "Plans and metering"), the allowances are the README's plan table, and
// the ledger is read from credit_usage with plain SQL on a connection of its own. The assertions hold with or
// without credit leases: nothing is compared before the nodes that could hold credits are stopped or settled.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { call } from '../helpers/service.js';
import { ledgerOf, startCluster, type Cluster } from '../helpers/cluster.js';
import { startNginx } from '../helpers/nginx.js';
import type { ServiceProcess } from '../helpers/service-process.js';

/** README "Plans and metering": Starter per calendar month. */
const starter = { api_calls: 2_000, bic_reveals: 200 } as const;
/** README "Plans and metering": the 24h Pass. */
const pass24h = { api_calls: 100, bic_reveals: 40 } as const;
const CLIENTS = 64;
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
});
