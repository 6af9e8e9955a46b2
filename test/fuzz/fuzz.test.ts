// Goal: no request a client can send to any REST endpoint or gRPC method crashes the service, hangs, or gets a
// 5xx, and every refusal is the Error object with its request id. Method: a bounded fuzz run (fast-check
// arbitraries from the op schemas, byte mutations of well-formed requests) against the real service; the
// long run (>= 100,000 per front) is bench/fuzz.ts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestService, type TestService } from '../helpers/service.js';
import { runFuzz, serviceRss } from './harness.js';

const requests = Number(process.env.FUZZ_REQUESTS ?? 10_000);
let service: TestService;
before(async () => {
  service = await startTestService();
});
after(async () => {
  await service.dispose();
});

test(`${requests} fuzzed requests over REST and gRPC: zero 5xx, zero hangs, every error an Error object with request_id`, async (t) => {
  const root = service.base.replace('/api/v1', '');
  const rssBefore = await serviceRss(root);
  const report = await runFuzz(
    { restBase: service.base, grpcAddress: service.grpcAddress, keys: service.keys },
    { requests, seed: 20261124 },
  );
  t.diagnostic(
    `REST ${report.rest}, gRPC ${report.grpc}; outcomes ${JSON.stringify(report.outcomes)}`,
  );
  t.diagnostic(
    `RSS ${(rssBefore / 2 ** 20).toFixed(0)} MiB before, ${((await serviceRss(root)) / 2 ** 20).toFixed(0)} MiB after (same process as the fuzzer; the bound is held in bench/fuzz.ts)`,
  );
  assert.deepEqual(report.failures.slice(0, 20), []);
  assert.equal(report.rest + report.grpc, requests);
  assert.equal((await fetch(`${root}/healthz`)).status, 200, 'the service still serves');
});
