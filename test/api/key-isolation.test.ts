// Goal: key-scoped resources are invisible across keys (404, never 403, so a key cannot learn that another key's
// resource exists), an idempotency record of one key never answers another key, and neither raw keys nor request
// bodies appear in the service's logs. Method: the real service with two keys of the same plan, REST and gRPC,
// logs captured from pino at debug level.
import assert from 'node:assert/strict';
import { Metadata, status } from '@grpc/grpc-js';
import { after, before, test } from 'node:test';
import { pino } from 'pino';
import { call, startTestService, type TestService } from '../helpers/service.js';
import { grpcClient, keyMetadata, unary, type IbanQaClient } from '../helpers/grpc-client.js';
import { newRequestId } from './us-routing-helpers.js';

const logLines: string[] = [];
let service: TestService;
let client: IbanQaClient;
let owner: string;
let other: string;
before(async () => {
  service = await startTestService({
    logger: pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) }),
  });
  client = grpcClient(service.grpcAddress);
  owner = service.keys.business;
  other = service.running.store.createKey('business', new Date(), 'second business key').key;
});
after(async () => {
  client.close();
  await service.dispose();
});

test('a watch of one key is 404 for another key on every watch route, REST and gRPC, and stays intact', async () => {
  const created = await call(service.base, '/registry/watchlists', {
    key: owner,
    body: { source_id: 'bankdata-germany', record_key: '10000000' },
  });
  assert.equal(created.status, 201, created.text);
  const id = created.body.watch.watch_id as string;
  for (const [method, path] of [
    ['GET', `/registry/watchlists/${id}`],
    ['GET', `/registry/watchlists/${id}/changes`],
    ['GET', `/registry/watchlists/${id}/migration-fixture`],
    ['DELETE', `/registry/watchlists/${id}`],
  ] as const) {
    const reply = await call(service.base, path, { key: other, method });
    assert.equal(reply.status, 404, `${method} ${path}: ${reply.text}`);
    assert.equal(reply.body.error, 'not_found');
  }
  assert.ok(
    !(await call(service.base, '/registry/watchlists', { key: other })).body.watchlists.some(
      (watch: { watch_id: string }) => watch.watch_id === id,
    ),
  );
  for (const method of ['GetWatchlist', 'WatchlistChanges', 'DeleteWatchlist']) {
    const reply = await unary(client, method, { watch_id: id }, keyMetadata(other));
    assert.equal(reply.error?.code, status.NOT_FOUND, method);
  }
  assert.equal(
    (await call(service.base, `/registry/watchlists/${id}`, { key: owner })).status,
    200,
    'the owner still has it',
  );
});

test('an idempotency record answers only its own key: the same request_id under another key is a new run, not a replay or a 409', async () => {
  const requestId = newRequestId();
  const first = await call(service.base, '/us/routing/run', {
    key: owner,
    body: { routing_numbers: ['011000015'], max_credits: 1, request_id: requestId },
  });
  assert.equal(first.status, 200, first.text);
  assert.equal(first.body.replayed, false);
  const replay = await call(service.base, '/us/routing/run', {
    key: owner,
    body: { routing_numbers: ['011000015'], max_credits: 1, request_id: requestId },
  });
  assert.equal(replay.body.replayed, true);
  const otherKey = await call(service.base, '/us/routing/run', {
    key: other,
    body: { routing_numbers: ['011000015', '021000021'], max_credits: 2, request_id: requestId },
  });
  assert.equal(otherKey.status, 200, otherKey.text);
  assert.equal(otherKey.body.replayed, false);
  assert.equal(otherKey.body.charged_credits, 2);
});

test('raw keys and request bodies never reach the logs, even for refused and failing requests', async () => {
  const marker = 'BODY-MARKER-7f3a';
  await call(service.base, '/generate', {
    key: owner,
    body: { country: 'DE', quantity: 1, seed: marker },
  });
  await call(service.base, '/generate', { key: owner, body: { country: marker } });
  await call(service.base, '/generate', {
    key: `${owner.slice(0, -1)}0`,
    body: { country: 'DE', seed: marker },
  });
  await call(service.base, '/validate', { raw: `{"ibans":["${marker}"` });
  await unary(client, 'Generate', { country: 'DE', seed: marker }, keyMetadata(other));
  await unary(client, 'Generate', { country: 'DE' }, new Metadata());
  const text = logLines.join('\n');
  assert.ok(logLines.length > 0, 'the logger is live');
  for (const secret of [owner, other, ...Object.values(service.keys)])
    assert.ok(!text.includes(secret), 'a raw key is in the logs');
  assert.ok(!text.includes(marker), 'a request body is in the logs');
});
