// Goal: metering is exact and all-or-nothing, refunds on failure, survives a restart, and concurrent requests can
// never overspend. Method: real service, demo keys, balances read from the service's own meter.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { call, creditsUsed, startTestService, type TestService } from '../helpers/service.js';

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(async () => {
  await service.dispose();
});

test('exact debits: generate and validate per row, BIC reveals only on paid keys', async () => {
  const key = service.keys.starter;
  const before = [
    creditsUsed(service, key, 'api_calls'),
    creditsUsed(service, key, 'bic_reveals'),
    creditsUsed(service, key, 'bank_metadata'),
  ];
  await call(service.base, '/generate', { key, body: { country: 'AT', quantity: 7 } });
  await call(service.base, '/generate', {
    key,
    body: { country: 'DE', quantity: 3, include_bank_details: true },
  });
  await call(service.base, '/validate', {
    key,
    body: { ibans: Array(4).fill('DE89370400440532013000') },
  });
  assert.equal(creditsUsed(service, key, 'api_calls') - before[0]!, 7 + 3 + 4);
  assert.equal(creditsUsed(service, key, 'bic_reveals') - before[1]!, 3 + 4);
  assert.equal(creditsUsed(service, key, 'bank_metadata') - before[2]!, 3);
});

test('a request that does not fit is 429 and debits nothing', async () => {
  const key = service.keys.pass24h; // 40 BIC reveals per 24 h
  const before = creditsUsed(service, key, 'api_calls');
  const refused = await call(service.base, '/generate', {
    key,
    body: { country: 'DE', quantity: 41, include_bank_details: true },
  });
  assert.equal(refused.status, 429);
  assert.equal(refused.body.error, 'BIC reveal limit reached');
  assert.equal(refused.body.credit_kind, 'bic_reveals');
  assert.equal(
    creditsUsed(service, key, 'api_calls'),
    before,
    'the API credits of a refused request are not debited',
  );
});

test('a request that fails after the debit is refunded in full', async () => {
  const key = service.keys.business;
  const before = creditsUsed(service, key, 'api_calls');
  const failed = await call(service.base, '/generate', {
    key,
    body: { country: 'DE', quantity: 50, targeting: { bic: 'ZZZZDEZZXXX' } },
  });
  assert.equal(failed.status, 404);
  assert.equal(creditsUsed(service, key, 'api_calls'), before);
  assert.equal(creditsUsed(service, key, 'bic_reveals'), 0);
});

test('concurrent requests never overspend: 20 requests of 5 against 50 free credits', async () => {
  const key = service.keys.free;
  const left = 50 - creditsUsed(service, key, 'api_calls');
  const replies = await Promise.all(
    Array.from({ length: 20 }, () =>
      call(service.base, '/validate', {
        key,
        body: { ibans: Array(5).fill('DE89370400440532013000') },
      }),
    ),
  );
  const ok = replies.filter((reply) => reply.status === 200).length;
  assert.equal(ok, Math.floor(left / 5));
  assert.equal(replies.filter((reply) => reply.status === 429).length, 20 - ok);
  assert.equal(creditsUsed(service, key, 'api_calls'), 50 - (left % 5));
});

test('balances survive a restart', async () => {
  const key = service.keys.pro;
  await call(service.base, '/generate', { key, body: { country: 'IT', quantity: 9 } });
  const used = creditsUsed(service, key, 'api_calls');
  await service.stop();
  service = await startTestService({ dataDir: service.dataDir });
  assert.equal(service.running.demoKeys.length, 0, 'demo keys are created only on an empty store');
  assert.equal(creditsUsed(service, key, 'api_calls'), used);
  const again = await call(service.base, '/generate', {
    key,
    body: { country: 'IT', quantity: 1 },
  });
  assert.equal(again.status, 200);
  assert.equal(creditsUsed(service, key, 'api_calls'), used + 1);
});
