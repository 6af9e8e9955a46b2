// Goal: a key can see its balances before it meets a 429: GET /usage (and GetUsage) per credit kind, X-RateLimit-*
// headers on keyed answers, and a paid key whose BIC reveals are spent gets /validate with bank fields locked.
// Method: real service, demo keys; expected allowances are the spec's plan table, period ends computed here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, type TestService } from '../helpers/service.js';
import {
  keyMetadata,
  unary,
  type IbanQaClient,
  withServiceAndGrpcClient,
} from '../helpers/grpc-client.js';

let service: TestService;
let client: IbanQaClient;
withServiceAndGrpcClient((started) => ({ service, client } = started));

const kinds = ['api_calls', 'profiles', 'bic_reveals', 'exports', 'bank_metadata', 'statements'];
/** Commerzbank Köln's published example IBAN: valid, and its bank code is in every German registry. */
const knownBankIban = 'DE89370400440532013000';

function firstOfNextMonthUtc(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
}

function createdAtOf(plan: string): string {
  const row = service.running.store.listKeys().find((key) => key.plan === plan);
  assert.ok(row);
  return row.created_at;
}

test('GET /usage needs a key', async () => {
  const reply = await call(service.base, '/usage');
  assert.equal(reply.status, 401);
  assert.equal(reply.body.error, 'Invalid API key');
});

test('GET /usage lists every credit kind with the plan allowance, use, remaining and period end', async () => {
  const key = service.keys.pro;
  const generated = await call(service.base, '/generate', {
    key,
    body: { country: 'AT', quantity: 3 },
  });
  assert.equal(generated.status, 200);
  const reply = await call(service.base, '/usage', { key });
  assert.equal(reply.status, 200);
  const usage = reply.body;
  assert.equal(usage.success, true);
  assert.equal(usage.plan, 'pro');
  assert.deepEqual(Object.keys(usage.credits).sort(), [...kinds].sort());
  const end = firstOfNextMonthUtc(new Date());
  // Pro in the spec's plan table: 10,000 API calls, 1,000 profiles, 2,000 BIC reveals, 500 exports per month.
  assert.deepEqual(usage.credits.api_calls, {
    allowance: 10_000,
    used: 3,
    reserved: 0,
    remaining: 9_997,
    period_end: end,
  });
  assert.equal(usage.credits.profiles.allowance, 1_000);
  assert.equal(usage.credits.bic_reveals.allowance, 2_000);
  assert.equal(usage.credits.exports.allowance, 500);
  assert.equal(usage.period.kind, 'calendar_month');
  assert.equal(usage.period.end, end);
  const again = await call(service.base, '/usage', { key });
  assert.equal(again.body.credits.api_calls.used, 3, 'reading the balance costs nothing');
});

test('Free is a lifetime allowance and a 24h Pass ends 24 hours after activation', async () => {
  const free = (await call(service.base, '/usage', { key: service.keys.free })).body;
  assert.equal(free.credits.api_calls.allowance, 50);
  assert.equal(free.credits.bic_reveals.allowance, 0);
  assert.equal(free.credits.api_calls.period_end, null);
  assert.equal(free.period.kind, 'lifetime');
  const pass = (await call(service.base, '/usage', { key: service.keys.pass24h })).body;
  const expiry = new Date(Date.parse(createdAtOf('pass24h')) + 24 * 3600 * 1000).toISOString();
  assert.equal(pass.credits.bic_reveals.allowance, 40);
  assert.equal(pass.credits.api_calls.period_end, expiry);
  assert.equal(pass.expires_at, expiry);
  const unlimited = (await call(service.base, '/usage', { key: service.keys.unlimited })).body;
  assert.equal(unlimited.credits.api_calls.allowance, null);
  assert.equal(unlimited.credits.api_calls.remaining, null);
});

test('keyed answers carry X-RateLimit-Limit, -Remaining (after this request) and -Reset for API calls', async () => {
  const key = service.keys.starter;
  const before = (await call(service.base, '/usage', { key })).body.credits.api_calls.used;
  const reply = await call(service.base, '/generate', {
    key,
    body: { country: 'NL', quantity: 4 },
  });
  assert.equal(reply.status, 200);
  assert.equal(reply.headers.get('x-ratelimit-limit'), '2000');
  assert.equal(reply.headers.get('x-ratelimit-remaining'), String(2000 - before - 4));
  assert.equal(reply.headers.get('x-ratelimit-reset'), firstOfNextMonthUtc(new Date()));
  const free = await call(service.base, '/generate', {
    key: service.keys.free,
    body: { country: 'NL' },
  });
  assert.equal(free.headers.get('x-ratelimit-limit'), '50');
  assert.equal(free.headers.get('x-ratelimit-reset'), null, 'a lifetime allowance never resets');
});

test("a keyed 429 carries the refused kind's limit, remaining, reset and Retry-After, as its body states", async () => {
  const key = service.keys.starter; // 200 BIC reveals per calendar month
  const reveal = { country: 'NL', quantity: 100, include_bank_details: true };
  const spent = (await call(service.base, '/usage', { key })).body.credits.bic_reveals.used;
  assert.equal(spent, 0);
  for (let round = 0; round < 2; round++)
    assert.equal((await call(service.base, '/generate', { key, body: reveal })).status, 200);
  const refused = await call(service.base, '/generate', { key, body: { ...reveal, quantity: 1 } });
  assert.equal(refused.status, 429);
  assert.equal(refused.body.credit_kind, 'bic_reveals');
  assert.equal(refused.headers.get('x-ratelimit-limit'), '200');
  assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
  const reset = firstOfNextMonthUtc(new Date());
  assert.equal(refused.headers.get('x-ratelimit-reset'), reset);
  const retryAfter = Number(refused.headers.get('retry-after'));
  const untilReset = (Date.parse(reset) - Date.now()) / 1000;
  assert.ok(
    retryAfter >= 1 && Math.abs(retryAfter - untilReset) < 60,
    `Retry-After ${retryAfter} s, reset in ${untilReset} s`,
  );
  assert.ok(refused.body.message.includes(`0 left, resets at ${reset}`), refused.body.message);
  const pass = await call(service.base, '/generate', {
    key: service.keys.pass24h,
    body: { ...reveal, quantity: 41 },
  });
  assert.equal(pass.status, 429);
  assert.equal(pass.headers.get('x-ratelimit-limit'), '40');
  assert.equal(
    pass.headers.get('retry-after'),
    null,
    'a 24h Pass never renews, so there is no time to retry at',
  );
});

test('GetUsage over gRPC reports the same balances', async () => {
  const key = service.keys.business;
  await call(service.base, '/validate', { key, body: { ibans: [knownBankIban, knownBankIban] } });
  const rest = (await call(service.base, '/usage', { key })).body;
  const grpc = await unary(client, 'GetUsage', {}, keyMetadata(key));
  assert.equal(grpc.error, null);
  assert.equal(grpc.response.plan, 'business');
  assert.equal(grpc.response.credits.api_calls.used, rest.credits.api_calls.used);
  assert.equal(grpc.response.credits.bic_reveals.used, 2);
  assert.equal(grpc.response.credits.api_calls.allowance, 100_000);
  const missing = await unary(client, 'GetUsage', {}, keyMetadata(undefined));
  assert.ok(missing.error);
});

for (const plan of ['enterprise', 'unlimited'] as const) {
  test(`/validate on ${plan}: invalid IBANs and unknown banks spend no BIC reveal`, async () => {
    const key = service.keys[plan];
    const before = (await call(service.base, '/usage', { key })).body.credits;
    const reply = await call(service.base, '/validate', {
      key,
      body: { ibans: ['DE89370400440532013001', 'XX00', knownBankIban, 'GB82WEST12345698765432'] },
    });
    assert.equal(reply.status, 200);
    const after = (await call(service.base, '/usage', { key })).body.credits;
    assert.equal(after.api_calls.used - before.api_calls.used, 4, 'one API credit per IBAN');
    const shown = reply.body.filter((row: any) => row.bank_match === 'matched').length;
    assert.equal(
      after.bic_reveals.used - before.bic_reveals.used,
      shown,
      'one reveal per row that shows a bank',
    );
    assert.equal(after.bic_reveals.reserved, 0, 'nothing stays held after the answer');
    assert.ok(shown >= 1 && shown <= 2);
  });
}

test('a paid key whose BIC reveals are spent gets /validate with bank fields locked, not a 429', async () => {
  const key = service.keys.pass24h; // 40 BIC reveals, 100 API calls
  const spend = await call(service.base, '/validate', {
    key,
    body: { ibans: Array(40).fill(knownBankIban) },
  });
  assert.equal(spend.status, 200);
  assert.equal(spend.body[0].premium_fields_locked, false);
  const before = (await call(service.base, '/usage', { key })).body.credits;
  assert.equal(before.bic_reveals.remaining, 0);
  const locked = await call(service.base, '/validate', {
    key,
    body: { ibans: [knownBankIban, 'DE00'] },
  });
  assert.equal(locked.status, 200);
  assert.equal(locked.body[0].valid, true);
  assert.equal(locked.body[0].swift_code, 'LOCKED');
  assert.equal(locked.body[0].bank_name, 'LOCKED');
  assert.equal(locked.body[0].premium_fields_locked, true);
  assert.equal(locked.body[0].locked_reason, 'bic_reveals_exhausted');
  assert.deepEqual(locked.body[0].locked_fields, ['swift_code', 'bank_name', 'bank_intelligence']);
  assert.equal(locked.body[0].bank_intelligence, undefined);
  assert.equal(locked.body[1].valid, false);
  const after = (await call(service.base, '/usage', { key })).body.credits;
  assert.equal(
    after.api_calls.used - before.api_calls.used,
    2,
    'the locked answer still costs its API credits',
  );
  assert.equal(after.bic_reveals.used, before.bic_reveals.used);
  // Generate has no locked form: revealing bank details with no reveals left stays a 429.
  const generate = await call(service.base, '/generate', {
    key,
    body: { country: 'DE', include_bank_details: true },
  });
  assert.equal(generate.status, 429);
  assert.equal(generate.body.credit_kind, 'bic_reveals');
});

test('gRPC Validate gives the same locked rows', async () => {
  const locked = await unary(
    client,
    'Validate',
    { ibans: [knownBankIban] },
    keyMetadata(service.keys.pass24h),
  );
  assert.equal(locked.error, null);
  assert.equal(locked.response.rows[0].locked_reason, 'bic_reveals_exhausted');
  assert.equal(locked.response.rows[0].swift_code, 'LOCKED');
});
