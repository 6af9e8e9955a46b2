// Goal: REST and gRPC are one service. Method: every unary operation of the op table is called over both fronts with
// the same requests (valid and invalid); outputs must match field for field (JSON null = absent optional field) and
// failures must carry the same `error` string with the statuses of the two exhaustive tables.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ops } from '../src/ops/table.js';
import { grpcStatusOf } from '../src/transport/grpc/status.js';
import { httpStatusOf } from '../src/transport/http/status.js';
import { grpcClient, keyMetadata, unary, type IbanQaClient } from './helpers/grpc-client.js';
import { call, startTestService, type TestService } from './helpers/service.js';

let service: TestService;
let client: IbanQaClient;
before(async () => {
  service = await startTestService();
  client = grpcClient(service.grpcAddress);
});
after(async () => {
  client.close();
  await service.dispose();
});

type Plan = 'free' | 'pro' | 'business';
const samples: Record<string, [Plan, Record<string, unknown>][]> = {
  'iban.generate': [
    ['pro', { country: 'DE', quantity: 3, seed: 'parity', include_bank_details: true }],
    ['free', { country: 'Italy', quantity: 2, seed: 'parity' }],
    ['pro', { country: 'Atlantis' }],
    ['pro', { country: 'DE', quantity: 101 }],
    ['pro', { country: 'DE', targeting: { bic: 'COBADEFFXXX' } }],
    ['business', { country: 'DE', targeting: { bic: 'ZZZZDEZZXXX' } }],
  ],
  'iban.validate': [
    ['pro', { ibans: ['DE89370400440532013000', 'FR1420041010050500013M02606', 'XX00', 'DE00370400440532013000'] }],
    ['free', { ibans: ['GB82WEST12345698765432'] }],
    ['pro', { ibans: [] }],
  ],
  'iban.test_cases': [
    ['pro', { country: 'FR', quantity: 9, seed: 'parity' }],
    ['pro', { country: 'FR', quantity: 4, seed: 'parity', output: 'csv' }],
    ['pro', { country: 'FR', quantity: 30 }],
  ],
  'iban.bulk_dataset': [
    ['pro', { country: 'BE', quantity: 5, seed: 'parity' }],
    ['pro', { country: 'BE', quantity: 5, seed: 'parity', output: 'csv' }],
    ['free', { country: 'BE' }],
  ],
  'iban.calculate': [
    ['pro', { country: 'DE', bank_code: '37040044', account_number: '532013000' }],
    ['pro', { country: 'DE', bank_code: '3704004', account_number: '532013000' }],
  ],
};

/** JSON null and an absent proto3 optional field mean the same; so do an empty list and an absent repeated field. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) {
      if (entry === null || entry === undefined || (Array.isArray(entry) && entry.length === 0)) continue;
      out[key] = normalize(entry);
    }
    return out;
  }
  return value;
}

test('every unary operation has parity samples', () => {
  const unaryOps = ops.filter((op) => op.http !== null).map((op) => op.name);
  assert.deepEqual(Object.keys(samples).sort(), unaryOps.sort());
});

test('REST and gRPC give the same outputs and the same errors', async () => {
  for (const op of ops.filter((candidate) => candidate.http !== null)) {
    for (const [plan, body] of samples[op.name] ?? []) {
      const rest = await call(service.base, op.http!.path, { key: service.keys[plan], body });
      const grpc = await unary(client, op.grpc.method, body, keyMetadata(service.keys[plan]));
      const label = `${op.name} ${JSON.stringify(body)}`;
      if (rest.status >= 400) {
        assert.ok(grpc.error, `${label}: gRPC must fail too`);
        assert.equal(grpc.error.metadata.get('error')[0], rest.body.error, label);
        const code = Object.entries(httpStatusOf).find(([candidate, line]) => line.startsWith(String(rest.status)) && grpcStatusOf[candidate as keyof typeof grpcStatusOf] === grpc.error!.code);
        assert.ok(code, `${label}: HTTP ${rest.status} and gRPC ${grpc.error.code} come from one error code`);
        continue;
      }
      assert.equal(grpc.error, null, `${label}: ${grpc.error?.message}`);
      if (rest.headers.get('content-type')?.startsWith('text/csv')) assert.equal(grpc.response.csv, rest.text, label);
      else if (op.grpc.wrap === 'rows') assert.deepEqual(normalize(grpc.response.rows), normalize(rest.body), label);
      else assert.deepEqual(normalize(grpc.response), normalize(rest.body), label);
    }
  }
});
