// Goal: a node on PostgreSQL states the ledger's balance in every keyed answer's X-RateLimit headers without reading
// the usage row per request: a request that spent credits reads the row its own spend's transaction returned, and
// an idempotent run (its debit saved with its result, not through a spend) still sees its own debit.
// Method: the real service in this process (uWS, grpc-js, the pool) on a schema of its own in the machine's
// PostgreSQL; the expected remaining is computed here from the credit_usage row read with plain SQL on a connection
// of the test's own (limit - used - reserved, Pro's published 10,000 API calls); the node's statements are counted
// at pg's Pool.prototype.query, which every one of them goes through (the real client, only counted).
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createTestSchema, querySchema, type TestSchema } from '../helpers/postgres.js';
import { call, startTestService, type JsonReply, type TestService } from '../helpers/service.js';

const PRO_API_CALLS = 10_000;
const STARTER_API_CALLS = 2_000;
const BALANCE_READ = /FROM credit_usage WHERE account_id = \$1 AND period_start = \$2/;
const SPEND = /spend_leases_usage/;

let schema: TestSchema;
let service: TestService;
const statements: string[] = [];
const originalQuery = pg.Pool.prototype.query;

/** A raw key's account id, computed here: key_ and 12 hex of its SHA-256. */
function accountIdOf(rawKey: string): string {
  return `key_${createHash('sha256').update(rawKey).digest('hex').slice(0, 12)}`;
}

/** What the ledger holds for the key now: remaining API calls, by the published allowance. */
async function remainingInTable(rawKey: string, allowance = PRO_API_CALLS): Promise<number> {
  const rows = await querySchema<{ used: string; reserved: string }>(
    schema,
    'SELECT used_api_calls AS used, reserved_api_calls AS reserved FROM credit_usage WHERE account_id = $1',
    [accountIdOf(rawKey)],
  );
  assert.equal(rows.length, 1);
  return allowance - Number(rows[0]?.used) - Number(rows[0]?.reserved);
}

/** A one-IBAN /validate on the key, answered 200. */
async function validateOne(key: string): Promise<JsonReply> {
  const reply = await call(service.base, '/validate', {
    key,
    body: { ibans: ['DE89370400440532013000'] },
  });
  assert.equal(reply.status, 200, reply.text);
  return reply;
}

function counted(pattern: RegExp, from: number): number {
  return statements.slice(from).filter((text) => pattern.test(text)).length;
}

describe('X-RateLimit headers of a node on PostgreSQL', () => {
  before(async () => {
    schema = await createTestSchema();
    // Counts what the node sends; every call goes on to the real client unchanged.
    pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
      const config = args[0];
      statements.push(
        typeof config === 'string' ? config : String((config as { text?: unknown })?.text),
      );
      return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof pg.Pool.prototype.query;
    service = await startTestService({ env: { IBANQA_DATABASE_URL: schema.url } });
  });
  after(async () => {
    await service?.dispose();
    pg.Pool.prototype.query = originalQuery;
    await schema?.drop();
  });

  it('each answer states the remaining the ledger holds after it, with no read of the usage row', async () => {
    const key = service.keys.pro;
    await validateOne(key);
    const from = statements.length;
    const requests = 30;
    for (let i = 0; i < requests; i++) {
      const ibans = Array.from({ length: 1 + (i % 3) }, () => 'GB82WEST12345698765432');
      const reply = await call(service.base, '/validate', { key, body: { ibans } });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(Number(reply.headers.get('x-ratelimit-remaining')), await remainingInTable(key));
    }
    assert.equal(counted(BALANCE_READ, from), 0, 'balance reads of the usage row');
    assert.ok(counted(SPEND, from) <= requests, `${counted(SPEND, from)} spends`);
  });

  it('GET /usage reads the ledger now: a debit by another node shows at once, though a fresh note says otherwise', async () => {
    const key = service.keys.pro;
    const reply = await validateOne(key);
    // Another holder's debit of 5 credits, written straight into the row.
    await querySchema(
      schema,
      'UPDATE credit_usage SET used_api_calls = used_api_calls + 5 WHERE account_id = $1',
      [accountIdOf(key)],
    );
    const usage = await call(service.base, '/usage', { key });
    assert.equal(usage.status, 200, usage.text);
    assert.equal(usage.body.credits.api_calls.remaining, await remainingInTable(key));
    assert.equal(
      usage.body.credits.api_calls.remaining,
      Number(reply.headers.get('x-ratelimit-remaining')) - 5,
    );
  });

  it('an idempotent run (its debit saved with its result, not spent from a lease) states the remaining after it', async () => {
    // A key not used yet: its first request's lease holds exactly that request's credit, so the run's reservation
    // takes a grant, which lowers the remaining the earlier answer's note stated.
    const key = service.keys.starter;
    const target = { routing_numbers: ['011000015', '021000021', '011000028'] };
    const first = await validateOne(key);
    const noted = Number(first.headers.get('x-ratelimit-remaining'));
    assert.equal(noted, await remainingInTable(key, STARTER_API_CALLS));
    const quote = await call(service.base, '/us/routing/quote', { key, body: target });
    assert.equal(quote.status, 200, quote.text);
    const run = await call(service.base, '/us/routing/run', {
      key,
      body: {
        ...target,
        max_credits: quote.body.max_credits,
        request_id: `${Date.now()}-${randomBytes(16).toString('hex')}`,
      },
    });
    assert.equal(run.status, 200, run.text);
    assert.equal(run.body.replayed, false);
    const after = await remainingInTable(key, STARTER_API_CALLS);
    assert.ok(after < noted, `the run's grant lowered the remaining (${noted} -> ${after})`);
    assert.equal(Number(run.headers.get('x-ratelimit-remaining')), after);
  });
});
