// Exact metering under concurrency: 64 clients on one small allowance, over REST and gRPC at once, are
// served exactly the allowance, never more, and the ledger's usage equals what was served.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { composeIBAN } from 'ibantools';
import { planOf } from '../../src/domain/plans/plans.js';
import { grpcClient, keyMetadata, unary, type IbanQaClient } from '../helpers/grpc-client.js';
import { call, startTestService, type TestService } from '../helpers/service.js';

const clients = 64;
let service: TestService;
let grpc: IbanQaClient;

before(async () => {
  service = await startTestService();
  grpc = grpcClient(service.grpcAddress);
});
after(async () => {
  grpc.close();
  await service.dispose();
});

const iban = composeIBAN({ countryCode: 'NL', bban: 'ABNA0417164300' }) as string;

/** One client: 1-IBAN validations until refused; returns how many were served. */
async function client(
  index: number,
  key: string | undefined,
  headers: Record<string, string> = {},
): Promise<number> {
  let served = 0;
  for (;;) {
    if (index % 2 === 0 || key === undefined) {
      const reply = await call(service.base, '/validate', {
        ...(key === undefined ? {} : { key }),
        headers,
        body: { ibans: [iban] },
      });
      if (reply.status === 429) return served;
      assert.equal(reply.status, 200, reply.text);
    } else {
      const reply = await unary(grpc, 'Validate', { ibans: [iban] }, keyMetadata(key));
      if (reply.error !== null) {
        assert.equal(reply.error.code, 8, reply.error.message); // RESOURCE_EXHAUSTED
        return served;
      }
    }
    served++;
  }
}

test('64 concurrent REST and gRPC clients on a free key are served exactly its api_calls allowance', async () => {
  const key = service.keys.free;
  const allowance = planOf('free').allowances.api_calls as number;
  const served = (
    await Promise.all(Array.from({ length: clients }, (_, index) => client(index, key)))
  ).reduce((a, b) => a + b, 0);
  assert.equal(served, allowance);
  const account = service.running.store.authenticate(key, new Date());
  assert.ok(account);
  const balance = service.running.meter.balance(account, new Date()).api_calls;
  assert.deepEqual([balance.used, balance.reserved, balance.remaining], [allowance, 0, 0]);
});

test('64 concurrent keyless clients from one address are served exactly the daily keyless allowance', async () => {
  const served = (
    await Promise.all(Array.from({ length: clients }, (_, index) => client(index, undefined)))
  ).reduce((a, b) => a + b, 0);
  assert.equal(served, 100);
});
