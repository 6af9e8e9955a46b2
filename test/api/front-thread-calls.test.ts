// Goal: with IBANQA_HTTP_THREADS=2 a warm keyed request answered by the front thread makes no call to the main
// thread (no authenticate, no balance for its X-RateLimit headers): only its turn's lease spend and, now and then,
// a lease top-up cross; the headers still state the ledger's remaining after the request; and a revoked key is
// refused on both threads: at once when the main thread revokes it, within limits.caches.staleMsMax when
// `ibanqa keys revoke` does so from another process. Method: the real service with two front threads, keep-alive
// clients on loopback (many connections, so the kernel puts some on each thread), the main thread's count of the
// calls front threads made to it (`frontThreadCalls`), the per-thread request counters of /metrics, the LMDB ledger
// read directly for the expected balances, and the real CLI as a child process.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { limits } from '../../src/limits.js';
import type { KindBalance } from '../../src/ports/credits.js';
import { startTestService, type TestService } from '../helpers/service.js';

const CONNECTIONS = 16;
const body = { ibans: ['DE89370400440532013000'] };
const entry = fileURLToPath(new URL('../../src/cli-entry.js', import.meta.url));

let service: TestService;
before(async () => {
  service = await startTestService({ env: { IBANQA_HTTP_THREADS: '2' } });
});
after(async () => {
  await service?.dispose();
});

interface Reply {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
}

function validate(key: string, agent: http.Agent | false): Promise<Reply> {
  const url = new URL(`${service.base}/validate`);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        agent,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** REST requests answered so far per thread, from /metrics. */
async function perThread(): Promise<Map<string, number>> {
  const text = await (await fetch(`${service.base.replace('/api/v1', '')}/metrics`)).text();
  return new Map(
    [...text.matchAll(/^ibanqa_rest_thread_requests_total\{thread="([^"]+)"\} (\d+)$/gm)].map(
      (match) => [match[1]!, Number(match[2])],
    ),
  );
}

function delta(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  return new Map([...after].map(([thread, count]) => [thread, count - (before.get(thread) ?? 0)]));
}

function callsSince(before: Record<string, number>): Record<string, number> {
  const now = service.running.frontThreadCalls();
  return Object.fromEntries(
    Object.entries(now)
      .map(([name, count]) => [name, count - (before[name] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
}

/** `rounds` requests on each of the agent's connections, the connections concurrently. */
async function onEveryConnection(key: string, agent: http.Agent, rounds: number) {
  const replies = await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const mine: Reply[] = [];
      for (let i = 0; i < rounds; i++) mine.push(await validate(key, agent));
      return mine;
    }),
  );
  return replies.flat();
}

function keepAlive(): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
}

test('a warm keyed request on the front thread makes no call to the main thread but its turn’s spend and a top-up now and then', async () => {
  const { key } = service.running.store.createKey('business', new Date(), 'calls per request');
  const agent = keepAlive();
  const warmedFrom = Date.now();
  await onEveryConnection(key, agent, 4);
  const threadsBefore = await perThread();
  const callsBefore = service.running.frontThreadCalls();
  const replies = await onEveryConnection(key, agent, 10);
  const calls = callsSince(callsBefore);
  const answered = delta(threadsBefore, await perThread());
  agent.destroy();
  assert.ok(replies.every((reply) => reply.status === 200));
  const onFront = answered.get('front-1') ?? 0;
  assert.ok(onFront >= 10, `the front thread answered ${onFront} of ${replies.length}`);
  // Not per request: the lease renewal timer (every TTL / 3) renews, reclaims and returns idle leases.
  const {
    'leases.spend': spends = 0,
    'leases.grant': grants = 0,
    'authenticator.resolve': resolves = 0,
    'leases.renew': _renewals,
    'leases.reclaimExpired': _reclaims,
    'leases.giveBack': _returns,
    ...others
  } = calls;
  assert.deepEqual(others, {}, 'no authenticate, no balance, nothing else');
  // The key's entry ages from its first read in the warm-up; under a heavy load the run may outlast it.
  const expiries = Math.floor((Date.now() - warmedFrom) / limits.caches.staleMsMax);
  assert.ok(resolves <= expiries, `${resolves} key lookups in ${expiries} expiries of the entry`);
  assert.ok(spends <= onFront, `${spends} spends for ${onFront} requests: at most one per turn`);
  assert.ok(grants * 2 <= onFront, `${grants} top-ups for ${onFront} requests`);
});

test('X-RateLimit-Remaining is the ledger’s remaining after the request, on either thread', async () => {
  const created = service.running.store.createKey('starter', new Date(), 'headers');
  const account = service.running.store.accountById(created.id);
  assert.ok(account !== null);
  const threadsBefore = await perThread();
  for (let i = 0; i < 40; i++) {
    // A fresh connection each time: the kernel picks either thread.
    const reply = await validate(created.key, false);
    assert.equal(reply.status, 200);
    const ledger: KindBalance = service.running.meter.balance(account, new Date()).api_calls;
    assert.equal(reply.headers['x-ratelimit-limit'], String(ledger.limit));
    assert.equal(reply.headers['x-ratelimit-remaining'], String(ledger.remaining), `request ${i}`);
  }
  const answered = delta(threadsBefore, await perThread());
  assert.ok((answered.get('main') ?? 0) > 0 && (answered.get('front-1') ?? 0) > 0);
});

test('a key the main thread revokes is refused at once on both threads', async () => {
  const created = service.running.store.createKey('pro', new Date(), 'revoked in process');
  const agent = keepAlive();
  // The key's entries are read during the warm-up, so none ages out before this plus staleMsMax.
  const warmedFrom = Date.now();
  const warmed = await onEveryConnection(created.key, agent, 2);
  assert.ok(warmed.every((reply) => reply.status === 200));
  assert.ok(service.running.store.revokeKey(created.id));
  // One message to each front thread; no entry has aged out (asserted below), so only that message can refuse.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const threadsBefore = await perThread();
  const replies = await onEveryConnection(created.key, agent, 1);
  const answered = delta(threadsBefore, await perThread());
  agent.destroy();
  assert.ok(Date.now() - warmedFrom < limits.caches.staleMsMax, 'answered before any entry aged');
  assert.deepEqual(
    replies.map((reply) => reply.status),
    replies.map(() => 401),
  );
  assert.ok((answered.get('main') ?? 0) > 0 && (answered.get('front-1') ?? 0) > 0);
});

test('a key `ibanqa keys revoke` revokes from another process is refused on both threads after staleMsMax', async () => {
  const created = service.running.store.createKey('pro', new Date(), 'revoked by the CLI');
  const agent = keepAlive();
  const warmed = await onEveryConnection(created.key, agent, 2);
  assert.ok(warmed.every((reply) => reply.status === 200));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [entry, 'keys', 'revoke', created.id, '--data-dir', service.dataDir],
    { env: { ...process.env, NODE_OPTIONS: '' } },
  );
  assert.match(stdout, new RegExp(`revoked ${created.id}`));
  // The bound runs from the revocation's commit, which the CLI's exit follows.
  await new Promise((resolve) => setTimeout(resolve, limits.caches.staleMsMax + 50));
  const threadsBefore = await perThread();
  const replies = await onEveryConnection(created.key, agent, 1);
  const answered = delta(threadsBefore, await perThread());
  agent.destroy();
  assert.deepEqual(
    replies.map((reply) => reply.status),
    replies.map(() => 401),
  );
  assert.ok((answered.get('main') ?? 0) > 0 && (answered.get('front-1') ?? 0) > 0);
});
