// Goal: POST /us/routing/run debits exactly its quote once per request_id: identical replays (sequential,
// 100 concurrent, after a restart, over gRPC) return the saved result without a second debit; a changed body,
// a wrong max_credits, a malformed or expired request_id and a stale quote are refused with nothing debited.
// Method: the real service with the real FedACH/Fedwire releases; the directory changes by restarting the
// service on the same data directory with the other release. Every op runs in the worker pool (threshold 1
// row), so a run is truly asynchronous: concurrent duplicates meet the leader while it is still running.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkRoutingNumber } from '../../src/domain/routing/index.js';
import { grpcClient, keyMetadata, unary } from '../helpers/grpc-client.js';
import { call, creditsUsed, type TestService } from '../helpers/service.js';
import {
  assertReplayOf,
  directory2016,
  directory2018,
  needsShared,
  newRequestId,
  sharedMissing,
  startWithDirectory,
  usageOf,
} from './us-routing-helpers.js';

let service: TestService;
/** Demo keys exist only on the first start of a data directory: keep them across restarts. */
let keys: TestService['keys'];
const inPool = { env: { IBANQA_POOL_THRESHOLD_ROWS: '1' } };
before(async () => {
  service = await startWithDirectory(sharedMissing ? '' : directory2018, inPool);
  keys = service.keys;
});
after(async () => {
  await service.dispose();
});

const post = (path: string, key: string, body: unknown) => call(service.base, path, { key, body });

interface Target {
  target_id: string;
  routing_number: string;
  source_sha256: string;
}

async function targetFor(number: string, key: string): Promise<Target> {
  const reply = await call(service.base, `/us/routing/targets?q=${number}&limit=1`, { key });
  const [target] = reply.body.results as Target[];
  assert.ok(target, `directory has ${number}`);
  return target;
}

/** Quote a body, then the run body for it. */
async function quoted(
  key: string,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const quote = await post('/us/routing/quote', key, body);
  assert.equal(quote.status, 200, JSON.stringify(quote.body));
  return { ...body, max_credits: quote.body.max_credits, request_id: newRequestId() };
}

describe('POST /us/routing/run', () => {
  it(
    'debits exactly the quoted credits and returns check rows and generated rows with test cases',
    needsShared,
    async () => {
      const key = keys.pro;
      const target = await targetFor('021000021', key);
      const body = await quoted(key, {
        routing_numbers: ['011000015', '011000016', '12345'],
        generate_tests: true,
        seed: 'run-rows',
        generation: {
          target_id: target.target_id,
          source_sha256: target.source_sha256,
          quantity: 4,
        },
      });
      const before = usageOf(service, key);
      const run = await post('/us/routing/run', key, body);
      assert.equal(run.status, 200, JSON.stringify(run.body));
      const after = usageOf(service, key);
      assert.equal(after.api_calls! - before.api_calls!, 3);
      assert.equal(after.bank_metadata! - before.bank_metadata!, 4);
      assert.equal(after.bic_reveals, before.bic_reveals);
      assert.equal(run.body.charged_credits, 7);
      assert.equal(run.body.replayed, false);
      const rows = run.body.rows as {
        row_type: string;
        routing_number: string;
        checksum?: { valid: boolean };
        test_cases?: { input: string; expected_valid: boolean; expected_error: string | null }[];
        account_number?: string;
        target?: Target;
      }[];
      assert.deepEqual(
        rows.map((row) => row.row_type),
        ['check', 'check', 'check', 'generated', 'generated', 'generated', 'generated'],
      );
      assert.deepEqual(
        rows.slice(0, 3).map((row) => row.checksum?.valid),
        [true, false, false],
      );
      assert.equal(rows[1]?.test_cases, undefined, 'no test cases for an invalid number');
      for (const row of rows.filter((r) => r.test_cases !== undefined)) {
        for (const testCase of row.test_cases!) {
          const verdict = checkRoutingNumber(testCase.input);
          assert.equal(verdict.valid, testCase.expected_valid, testCase.input);
          assert.equal(verdict.error, testCase.expected_error, testCase.input);
        }
      }
      for (const row of rows.slice(3)) {
        assert.equal(row.routing_number, '021000021');
        assert.deepEqual(row.target?.target_id, target.target_id);
        assert.match(row.account_number ?? '', /^[1-9]\d{7,11}$/);
        assert.ok(row.test_cases && row.test_cases.length > 0);
      }
      // Seeded: another request_id with the same seed and target gives the same generated rows.
      const again = await post('/us/routing/run', key, { ...body, request_id: newRequestId() });
      assert.deepEqual(again.body.rows, run.body.rows);
    },
  );

  it(
    'an identical replay returns the saved result with replayed: true and no second debit; a changed body is 409',
    needsShared,
    async () => {
      const key = keys.business;
      const body = await quoted(key, { routing_numbers: ['011000015', '026009593'] });
      const first = await post('/us/routing/run', key, body);
      assert.equal(first.status, 200);
      const before = usageOf(service, key);
      const replay = await post('/us/routing/run', key, body);
      assert.equal(replay.status, 200);
      assertReplayOf(replay.body, first.body);
      assert.deepEqual(usageOf(service, key), before);
      const changed = await post('/us/routing/run', key, {
        ...body,
        routing_numbers: ['011000015', '011000028'],
      });
      assert.equal(changed.status, 409);
      assert.equal(changed.body.error, 'conflict');
      assert.match(changed.body.message, /already used with a different request/);
      assert.deepEqual(usageOf(service, key), before);
      // Another key may use the same request_id: ids are scoped per key.
      const otherKey = keys.enterprise;
      assert.equal((await post('/us/routing/run', otherKey, body)).body.replayed, false);
    },
  );

  it('100 concurrent runs with one request_id run once and debit once', async () => {
    const key = keys.starter;
    const body = await quoted(key, { routing_numbers: ['011000015', '021000021', '011000016'] });
    const before = creditsUsed(service, key, 'api_calls');
    const replies = await Promise.all(
      Array.from({ length: 100 }, () => post('/us/routing/run', key, body)),
    );
    assert.ok(
      replies.every((reply) => reply.status === 200),
      JSON.stringify(replies.find((r) => r.status !== 200)?.body),
    );
    assert.equal(
      creditsUsed(service, key, 'api_calls') - before,
      3,
      'one debit for 100 identical requests',
    );
    assert.equal(replies.filter((reply) => reply.body.replayed === false).length, 1);
    const original = replies.find((reply) => reply.body.replayed === false)!.body;
    for (const reply of replies) if (reply.body.replayed) assertReplayOf(reply.body, original);
  });

  it('max_credits must equal the quote: 400 with the expected value, nothing debited', async () => {
    const key = keys.starter;
    const body = await quoted(key, { routing_numbers: ['011000015'] });
    const before = usageOf(service, key);
    const wrong = await post('/us/routing/run', key, { ...body, max_credits: 2 });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.expected_max_credits, 1);
    assert.deepEqual(usageOf(service, key), before);
    // The refused request_id is still unused: the correct body runs.
    assert.equal((await post('/us/routing/run', key, body)).status, 200);
  });

  it('request_id: malformed, older than 24 hours or more than 5 minutes ahead is 400; nothing debited', async () => {
    const key = keys.starter;
    const body = await quoted(key, { routing_numbers: ['011000015'] });
    const before = usageOf(service, key);
    const hour = 60 * 60 * 1000;
    const cases: [string, RegExp][] = [
      ['1700000000000-ABCDEF0123456789abcdef0123456789', /request_id/],
      ['170000000000-abcdef0123456789abcdef0123456789', /request_id/],
      ['1700000000000_abcdef0123456789abcdef0123456789', /request_id/],
      [newRequestId(Date.now() - 25 * hour), /expired/],
      [newRequestId(Date.now() + 10 * 60 * 1000), /future/],
    ];
    for (const [requestId, message] of cases) {
      const reply = await post('/us/routing/run', key, { ...body, request_id: requestId });
      assert.equal(reply.status, 400, requestId);
      assert.equal(reply.body.error, 'invalid_argument');
      assert.match(reply.body.message, message, requestId);
    }
    assert.equal(
      (
        await post('/us/routing/run', key, {
          ...body,
          request_id: newRequestId(Date.now() - 23 * hour),
        })
      ).status,
      200,
    );
    assert.equal(
      (
        await post('/us/routing/run', key, {
          ...body,
          request_id: newRequestId(Date.now() + 4 * 60 * 1000),
        })
      ).status,
      200,
    );
    assert.equal(creditsUsed(service, key, 'api_calls') - before.api_calls!, 2);
  });

  it(
    'targeted runs: Pro up to 150 rows, 151 is 402; refusals debit nothing',
    needsShared,
    async () => {
      const key = keys.pro;
      const target = await targetFor('011000015', key);
      const before = usageOf(service, key);
      const reply = await post('/us/routing/run', key, {
        generation: {
          target_id: target.target_id,
          source_sha256: target.source_sha256,
          quantity: 151,
        },
        max_credits: 151,
        request_id: newRequestId(),
      });
      assert.equal(reply.status, 402);
      assert.equal(reply.body.error, 'advanced_targeting_required');
      assert.deepEqual(usageOf(service, key), before);
    },
  );

  it('the same run over gRPC replays the REST result (one store, one debit)', async () => {
    const key = keys.starter;
    const body = await quoted(key, { routing_numbers: ['011000015'] });
    const rest = await post('/us/routing/run', key, body);
    const before = usageOf(service, key);
    const client = grpcClient(service.grpcAddress);
    try {
      const grpc = await unary(client, 'UsRoutingRun', body, keyMetadata(key));
      assert.equal(grpc.error, null, grpc.error?.message);
      assert.equal(grpc.response.replayed, true);
      assert.equal(grpc.response.quote_hash, rest.body.quote_hash);
      assert.equal(grpc.response.rows.length, 1);
    } finally {
      client.close();
    }
    assert.deepEqual(usageOf(service, key), before);
  });
});

describe('POST /us/routing/run across restarts and directory changes', () => {
  it('a replay after a restart returns the saved result with no debit', async () => {
    const key = keys.business;
    const body = await quoted(key, { routing_numbers: ['011000015', '011000028'] });
    const first = await post('/us/routing/run', key, body);
    assert.equal(first.status, 200);
    const used = creditsUsed(service, key, 'api_calls');
    await service.stop();
    service = await startWithDirectory(sharedMissing ? '' : directory2018, {
      ...inPool,
      dataDir: service.dataDir,
    });
    assert.equal(creditsUsed(service, key, 'api_calls'), used);
    const replay = await post('/us/routing/run', key, body);
    assert.equal(replay.status, 200);
    assertReplayOf(replay.body, first.body);
    assert.equal(creditsUsed(service, key, 'api_calls'), used);
  });

  it(
    'a quote made before the directory changed is 409 "stale quote" at run time, nothing debited',
    needsShared,
    async () => {
      const key = keys.business;
      await service.stop();
      service = await startWithDirectory(directory2016, { ...inPool, dataDir: service.dataDir });
      const old = await targetFor('011000015', key);
      const body = await quoted(key, {
        generation: { target_id: old.target_id, source_sha256: old.source_sha256, quantity: 5 },
      });
      await service.stop();
      service = await startWithDirectory(directory2018, { ...inPool, dataDir: service.dataDir });
      const before = usageOf(service, key);
      const stale = await post('/us/routing/run', key, body);
      assert.equal(stale.status, 409);
      assert.equal(stale.body.error, 'conflict');
      assert.match(stale.body.message, /stale quote: directory changed/);
      assert.equal(stale.body.stale_source_sha256, old.source_sha256);
      assert.deepEqual(usageOf(service, key), before);
      const requote = await post('/us/routing/quote', key, {
        generation: { ...(body.generation as object) },
      });
      assert.equal(requote.status, 409, 'the quote endpoint says so too');
      const current = await targetFor('011000015', key);
      assert.notEqual(current.target_id, old.target_id);
      const fresh = await quoted(key, {
        generation: {
          target_id: current.target_id,
          source_sha256: current.source_sha256,
          quantity: 5,
        },
      });
      assert.equal((await post('/us/routing/run', key, fresh)).status, 200);
    },
  );
});
