// Goal: with IBANQA_HTTP_THREADS=2 the REST front runs on two threads sharing one port, and nothing a client
// can observe changes: credits stay exact under concurrency across threads, answers are byte-identical to the
// single-thread front, main-only ops work from the front thread, a registry import is answered from at once on
// every thread, and a stop closes every listen socket and leaves the ledger durable. Method: the real service twice (1 and 2 threads, same seeded registry), real
// keep-alive HTTP clients on loopback (node:http agents: one connection per concurrent client, so the kernel
// spreads them over the threads), the per-thread counters of /metrics to see that both threads answered, and
// the ledger reopened from disk after the stop. Allowances are the spec's (Free: 50 API calls for life).
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { AccountStore } from '../../src/accounts/account-store.js';
import { Meter } from '../../src/accounts/meter.js';
import { readFixture } from '../fixtures/registry/paths.js';
import { importIntoRegistry } from '../helpers/registry-import.js';
import { creditsUsed, startTestService, type TestService } from '../helpers/service.js';

const FREE_API_CALLS = 50;
/** The synthetic bank of the registry fixture (test/fixtures/registry), behind the BIC SYNTDEK1XXX. */
const syntheticBank = 'Synthetische Testbank Köln';
const CLIENTS = 64;
/** Small enough that a 50-row generate runs in the pool: the front thread hands it to the main thread's pool. */
const POOL_THRESHOLD = '20';

let single: TestService;
let threaded: TestService;
/** The last test stops the threaded service itself; closing twice would close its listen socket twice. */
let threadedStopped = false;
before(async () => {
  single = await startTestService({ env: { IBANQA_POOL_THRESHOLD_ROWS: POOL_THRESHOLD } });
  threaded = await startTestService({
    env: { IBANQA_HTTP_THREADS: '2', IBANQA_POOL_THRESHOLD_ROWS: POOL_THRESHOLD },
  });
});
after(async () => {
  await single?.dispose();
  if (!threadedStopped) await threaded?.stop();
  if (threaded !== undefined) rmSync(threaded.dataDir, { recursive: true, force: true });
});

interface Reply {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

function request(
  base: string,
  path: string,
  options: { agent: http.Agent | false; key?: string; body?: unknown; method?: string },
): Promise<Reply> {
  const url = new URL(`${base}${path}`);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  // A fixed request id: error bodies echo it, and the comparison between fronts must not see a fresh one.
  const headers: Record<string, string> = { 'x-request-id': 'front-threads-test' };
  if (options.key !== undefined) headers['x-api-key'] = options.key;
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: options.method ?? (payload === undefined ? 'GET' : 'POST'),
        headers,
        agent: options.agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type']),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** REST requests answered per thread, from the summed scrape of /metrics. */
async function perThread(service: TestService): Promise<Map<string, number>> {
  const text = (await request(service.base.replace('/api/v1', ''), '/metrics', { agent: false }))
    .body;
  const counts = new Map<string, number>();
  for (const match of text.matchAll(
    /^ibanqa_rest_thread_requests_total\{thread="([^"]+)"\} (\d+)$/gm,
  ))
    counts.set(match[1]!, Number(match[2]));
  return counts;
}

function delta(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  return new Map([...after].map(([thread, count]) => [thread, count - (before.get(thread) ?? 0)]));
}

/** `count` requests, one after the other, each over a fresh connection (each may land on either thread). */
async function spread(
  service: TestService,
  count: number,
  path: string,
  options: { key?: string; body?: unknown } = {},
): Promise<Reply[]> {
  const replies: Reply[] = [];
  // One at a time: the pooled generate would otherwise meet the pool's queue bound (503), on one thread as on two.
  for (let i = 0; i < count; i++)
    replies.push(await request(service.base, path, { ...options, agent: false }));
  return replies;
}

test(`${CLIENTS} concurrent keep-alive clients over two threads: exactly the Free allowance is served, every refusal a 429 Error object`, async () => {
  const key = threaded.keys.free;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const countsBefore = await perThread(threaded);
  const perClient = 3;
  const replies = (
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        const mine: Reply[] = [];
        for (let i = 0; i < perClient; i++)
          mine.push(
            await request(threaded.base, '/validate', {
              agent,
              key,
              body: { ibans: ['DE89370400440532013000'] },
            }),
          );
        return mine;
      }),
    )
  ).flat();
  agent.destroy();
  const served = replies.filter((reply) => reply.status === 200);
  const refused = replies.filter((reply) => reply.status !== 200);
  assert.equal(served.length, FREE_API_CALLS, 'exactly the allowance, never more');
  assert.equal(refused.length, CLIENTS * perClient - FREE_API_CALLS);
  for (const reply of refused) {
    assert.equal(reply.status, 429);
    const body = JSON.parse(reply.body) as Record<string, unknown>;
    assert.equal(typeof body.error, 'string');
    assert.equal(typeof body.message, 'string');
    assert.equal(typeof body.request_id, 'string');
    assert.equal(body.credit_kind, 'api_calls');
  }
  assert.equal(creditsUsed(threaded, key), FREE_API_CALLS, 'the ledger counts the rows served');
  assert.equal(threaded.running.meter.pendingReservations, 0, 'every reservation settled');
  const answered = delta(countsBefore, await perThread(threaded));
  assert.ok(
    (answered.get('main') ?? 0) > 0 && (answered.get('front-1') ?? 0) > 0,
    `both threads answered: ${JSON.stringify([...answered])}`,
  );
  assert.equal(
    (answered.get('main') ?? 0) + (answered.get('front-1') ?? 0),
    CLIENTS * perClient,
    'the summed scrape counts every request once',
  );
});

test('answers are byte-identical with one and two threads: seeded generate (inline and pooled), validate, a 400', async () => {
  const calls: { path: string; body: unknown }[] = [
    { path: '/generate', body: { country: 'DE', quantity: 10, seed: 'front-threads' } },
    { path: '/generate', body: { country: 'FR', quantity: 50, seed: 'front-threads' } },
    {
      path: '/validate',
      body: {
        ibans: [
          'DE89370400440532013000',
          'GB82WEST12345698765432',
          'FR7630006000011234567890189',
          'DE00370400440532013000',
        ],
      },
    },
    { path: '/generate', body: { country: 'DE', quantity: 0 } },
  ];
  const countsBefore = await perThread(threaded);
  for (const { path, body } of calls) {
    const [expected] = await spread(single, 1, path, { key: single.keys.business, body });
    const replies = await spread(threaded, 12, path, { key: threaded.keys.business, body });
    for (const reply of replies)
      assert.deepEqual(reply, expected, `${path} ${JSON.stringify(body)}`);
  }
  const answered = delta(countsBefore, await perThread(threaded));
  assert.ok(
    (answered.get('front-1') ?? 0) > 0 && (answered.get('main') ?? 0) > 0,
    `both threads answered: ${JSON.stringify([...answered])}`,
  );
});

test('a main-only op (GET /usage) answers through the front thread as on the main thread', async () => {
  const key = threaded.keys.pro;
  const countsBefore = await perThread(threaded);
  const replies = await spread(threaded, 24, '/usage', { key });
  const answered = delta(countsBefore, await perThread(threaded));
  assert.ok(
    (answered.get('front-1') ?? 0) > 0,
    `the front thread answered some: ${JSON.stringify([...answered])}`,
  );
  const usages = replies.map((reply) => {
    assert.equal(reply.status, 200);
    return JSON.parse(reply.body) as { plan: string; key_id: string };
  });
  const account = threaded.running.store.authenticate(key, new Date());
  for (const usage of usages) {
    assert.equal(usage.plan, 'pro');
    assert.equal(usage.key_id, account?.id);
  }
  assert.equal(
    new Set(replies.map((reply) => reply.body)).size,
    1,
    'one answer whichever thread took the connection',
  );
});

test('a registry import on the main thread is what the front thread answers from at once', async () => {
  const lookup = { value: 'SYNTDEK1XXX', type: 'bic' };
  const before = await spread(threaded, 4, '/bank-intelligence/lookup', {
    key: threaded.keys.business,
    body: lookup,
  });
  for (const reply of before)
    assert.ok(
      reply.status === 200 && !reply.body.includes(syntheticBank),
      reply.body.slice(0, 300),
    );
  // The import `ibanqa registry import` runs beside the service, in a process of its own.
  await importIntoRegistry(threaded.dataDir, [
    {
      file: {
        sourceId: 'bundesbank-blz',
        bytes: readFixture('bundesbank-synthetic-latin1.txt'),
        fileName: 'bundesbank-synthetic.txt',
        snapshotDate: '2026-01-01',
      },
    },
  ]);
  const countsBefore = await perThread(threaded);
  const after = await spread(threaded, 16, '/bank-intelligence/lookup', {
    key: threaded.keys.business,
    body: lookup,
  });
  const answered = delta(countsBefore, await perThread(threaded));
  assert.ok(
    (answered.get('front-1') ?? 0) > 0,
    `the front thread answered some: ${JSON.stringify([...answered])}`,
  );
  for (const reply of after)
    assert.ok(reply.status === 200 && reply.body.includes(syntheticBank), reply.body.slice(0, 300));
});

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

test('a stop closes the listen socket of every thread and leaves the ledger durable', async () => {
  const port = threaded.running.httpPort;
  const key = threaded.keys.starter;
  const served = (
    await spread(threaded, 16, '/validate', {
      key,
      body: { ibans: ['DE89370400440532013000', 'GB82WEST12345698765432'] },
    })
  ).filter((reply) => reply.status === 200).length;
  assert.equal(served, 16);
  const account = threaded.running.store.authenticate(key, new Date());
  assert.ok(account);
  threadedStopped = true;
  await threaded.stop();
  // With SO_REUSEPORT a socket left open by either thread would still accept: 32 fresh connections all refused.
  const accepted = (await Promise.all(Array.from({ length: 32 }, () => connects(port)))).filter(
    Boolean,
  ).length;
  assert.equal(accepted, 0, 'no thread still listens');
  const store = AccountStore.open(threaded.dataDir);
  try {
    assert.equal(
      Meter.open(store).balance(account, new Date()).api_calls.used,
      16 * 2,
      'the debits of every answered request are on disk',
    );
  } finally {
    await store.close();
  }
});
