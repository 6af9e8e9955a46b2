import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import {
  collectClientGarbage,
  encodePost,
  interleavedRounds,
  LatencyClient,
  latencyOf,
  sequentialRounds,
  withClientGc,
} from './latency-client.js';

/** Answers POST bodies: `{"bytes":n}` gets n bytes back, `{"status":s}` gets that status. */
async function echoServer(): Promise<{ server: Server; port: number; bodies: string[] }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      bodies.push(body);
      const asked = JSON.parse(body) as { bytes?: number; status?: number };
      const answer = 'x'.repeat(asked.bytes ?? 2);
      // uWS always sends content-length; the client refuses chunked answers.
      res.writeHead(asked.status ?? 200, {
        'content-type': 'text/plain',
        'content-length': answer.length,
      });
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, bodies };
}

test('times whole responses over one connection, bodies larger than the read buffer included, and rejects a non-200', async (t) => {
  const { server, port, bodies } = await echoServer();
  t.after(() => server.close());
  const client = await LatencyClient.open('127.0.0.1', port);
  t.after(() => client.close());
  for (const bytes of [0, 10, 700_000, 3]) {
    const ms = await client.send(
      encodePost('127.0.0.1', port, '/x', { 'x-test': 'yes' }, JSON.stringify({ bytes })),
    );
    assert.ok(ms > 0 && Number.isFinite(ms));
  }
  assert.deepEqual(
    bodies.map((body) => JSON.parse(body).bytes),
    [0, 10, 700_000, 3],
    'each request reached the server in order',
  );
  await assert.rejects(
    client.send(encodePost('127.0.0.1', port, '/x', {}, JSON.stringify({ status: 402 }))),
    /HTTP 402/,
  );
  await assert.rejects(
    Promise.all([
      client.send(encodePost('127.0.0.1', port, '/x', {}, '{}')),
      client.send(encodePost('127.0.0.1', port, '/x', {}, '{}')),
    ]),
    /one request at a time/,
  );
});

test('rounds continue through the bodies after the warm-up and report the median round by p99', async (t) => {
  const { server, port, bodies } = await echoServer();
  t.after(() => server.close());
  const distinct = Array.from({ length: 34 }, (_, i) => JSON.stringify({ bytes: i }));
  const measured = await sequentialRounds(port, '/x', {}, distinct, 10, { rounds: 3, warmup: 4 });
  assert.deepEqual(
    bodies,
    distinct,
    'the rounds continue after the warm-up: no body is sent twice',
  );
  assert.equal(measured.rounds.length, 3);
  const p99s = measured.rounds.map((round) => round.latency.p99Ms).sort((a, b) => a - b);
  assert.equal(measured.median.p99Ms, p99s[1]);
  assert.ok(
    measured.rounds.every((round) => round.latency.requests === 10 && round.clientGc.count >= 0),
  );
});

test('latencyOf: nearest-rank percentiles and the share over 1 ms', () => {
  const samples = Array.from({ length: 1000 }, (_, i) => (i + 1) / 500); // 0.002 .. 2 ms
  const latency = latencyOf(samples);
  assert.equal(latency.p50Ms, 1.002);
  assert.equal(latency.p99Ms, 1.982);
  assert.equal(latency.over1MsShare, 0.5);
});

test('withClientGc sees the collections of its work', async () => {
  const { clientGc } = await withClientGc(() => Promise.resolve(collectClientGarbage()));
  assert.ok(clientGc.count >= 1, JSON.stringify(clientGc));
  assert.ok(clientGc.totalMs > 0);
});

test('interleaved rounds alternate between targets, warm up on their own bodies, and time each target apart', async (t) => {
  const first = await echoServer();
  const second = await echoServer();
  t.after(() => {
    first.server.close();
    second.server.close();
  });
  const bodies = (tag: number) =>
    Array.from({ length: 12 }, (_, i) => JSON.stringify({ bytes: tag * 100 + i }));
  const [a, b] = await interleavedRounds(
    [
      {
        port: first.port,
        path: '/x',
        headers: {},
        bodies: bodies(1),
        warmupBodies: ['{"bytes":0}'],
      },
      { port: second.port, path: '/x', headers: {}, bodies: bodies(2) },
    ],
    4,
    { rounds: 2, warmup: 3 },
  );
  assert.deepEqual(
    first.bodies,
    [...Array(3).fill('{"bytes":0}'), ...bodies(1).slice(0, 8)],
    'warm-up bodies, then the measured ones from the start',
  );
  assert.deepEqual(
    second.bodies,
    bodies(2).slice(0, 11),
    'without warm-up bodies the warm-up takes the first ones',
  );
  assert.equal(a?.rounds.length, 2);
  assert.equal(b?.rounds[1]?.latency.requests, 4);
});
