// Goal: REST and gRPC are one service. Method: every unary operation of the op table is called over both fronts with
// the same requests (valid and invalid); outputs must match field for field (JSON null = absent optional field) and
// failures must carry the same `error` string with the statuses of the two exhaustive tables.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ops } from '../src/ops/table.js';
import { grpcStatusOf } from '../src/transport/grpc/status.js';
import { httpStatusOf } from '../src/transport/http/status.js';
import {
  keyMetadata,
  unary,
  type IbanQaClient,
  withServiceAndGrpcClient,
} from './helpers/grpc-client.js';
import { call, type TestService } from './helpers/service.js';

let service: TestService;
let client: IbanQaClient;
withServiceAndGrpcClient((started) => ({ service, client } = started));

type Plan = 'free' | 'starter' | 'pro' | 'business' | 'enterprise' | 'unlimited';
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
    [
      'pro',
      {
        ibans: [
          'DE89370400440532013000',
          'FR1420041010050500013M02606',
          'XX00',
          'DE00370400440532013000',
        ],
      },
    ],
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
  // registry samples: the embedded default registry of a fresh service
  'bank.lookup': [
    [
      'business',
      {
        identifiers: [
          { value: 'COBADEFFXXX', type: 'bic' },
          { value: 'DE:37040044' },
          { value: 'ZZZZDEZZXXX' },
        ],
      },
    ],
    ['starter', { value: '37040044', type: 'de_blz' }],
    ['free', { value: 'COBADEFFXXX' }],
    ['starter', { value: 'x'.repeat(129) }],
    ['starter', { value: 'COBADEFFXXX', identifiers: [{ value: 'COBADEFFXXX' }] }],
  ],
  'bank.search': [
    ['pro', { query: 'commerzbank', country_code: 'DE', limit: 5 }],
    ['starter', { query: 'commerzbank' }],
    ['pro', { query: 'c' }],
  ],
  'bank.record': [
    ['business', { record_id: 1 }],
    ['free', { record_id: 2 }],
    ['pro', { record_id: 99_999_999 }],
  ],
  'bank.export': [
    ['business', { identifiers: [{ value: 'COBADEFFXXX' }, { value: 'ZZZZDEZZXXX' }] }],
    ['free', { value: 'COBADEFFXXX' }],
  ],
  'bank.sources': [
    ['business', {}],
    ['pro', {}],
  ],
  'bank.changes': [
    ['enterprise', { source_id: 'bankdata-germany', limit: 3 }],
    ['business', { limit: 3 }],
    ['enterprise', { limit: 0 }],
    ['enterprise', { source_id: 'no-such-source' }],
  ],
  'registry.watchlists.list': [['pro', {}]],
  'registry.watchlists.create': [
    ['pro', { source_id: 'bankdata-germany', record_key: '37040044' }],
    ['pro', { source_id: 'no-such-source', record_key: '1' }],
  ],
  'registry.watchlists.get': [['pro', { watch_id: 'wl_00000000000000000000' }]],
  'registry.watchlists.delete': [['pro', { watch_id: 'wl_00000000000000000000' }]],
  'registry.watchlists.changes': [['pro', { watch_id: 'wl_00000000000000000000' }]],
  'registry.watchlists.migration_fixture': [['pro', { watch_id: 'wl_00000000000000000000' }]],
  'registry.time_machine': [
    ['enterprise', { source_id: 'bankdata-germany', record_key: '37040044' }],
    ['enterprise', { source_id: 'bankdata-germany', record_key: '00000000' }],
    ['business', { source_id: 'bankdata-germany', record_key: '37040044' }],
  ],
  // US routing samples: no directory is loaded in this service. A successful run or full profile
  // would replay on the second transport (replayed: true), so those appear only as refusals here; their
  // cross-transport replay is tested in test/api/us-routing-run.test.ts.
  'us_routing.generate': [
    ['pro', { mode: 'synthetic', quantity: 3, seed: 'parity' }],
    ['free', { mode: 'synthetic', quantity: 11 }],
  ],
  'us_routing.targets': [
    ['pro', { q: 'boston', limit: 5 }],
    ['pro', { limit: 101 }],
  ],
  'us_routing.quote': [
    ['pro', { routing_numbers: ['011000015', 'x'], generate_tests: true }],
    ['pro', {}],
    [
      'starter',
      {
        generation: {
          target_id: 'rt_0000000000000000',
          source_sha256: 'a'.repeat(64),
          quantity: 3,
        },
      },
    ],
    [
      'pro',
      {
        generation: {
          target_id: 'rt_0000000000000000',
          source_sha256: 'a'.repeat(64),
          quantity: 3,
        },
      },
    ],
  ],
  'us_routing.run': [
    [
      'pro',
      {
        routing_numbers: ['011000015'],
        max_credits: 2,
        request_id: `${Date.now()}-${'0'.repeat(32)}`,
      },
    ],
    ['pro', { routing_numbers: ['011000015'], max_credits: 1, request_id: '1-abc' }],
    [
      'pro',
      {
        routing_numbers: ['011000015'],
        max_credits: 1,
        request_id: `${Date.now() - 25 * 3_600_000}-${'0'.repeat(32)}`,
      },
    ],
  ],
  'us_routing.lookup': [
    ['pro', { routing_number: '011000015' }],
    ['pro', { routing_number: '011000016' }],
    ['pro', { routing_number: '0110' }],
  ],
  'us_routing.check_list': [
    ['pro', { routing_numbers: ['011000015', 'abc', '130000006', ''] }],
    ['free', { routing_numbers: Array(11).fill('011000015') }],
  ],
  'us_routing.profile': [
    ['pro', { mode: 'synthetic', seed: 'parity', preview_only: true }],
    ['pro', { mode: 'synthetic', seed: 'parity' }],
    [
      'starter',
      {
        mode: 'targeted',
        seed: 'parity',
        preview_only: true,
        generation: { target_id: 'rt_0000000000000000', source_sha256: 'a'.repeat(64) },
      },
    ],
  ],
  'account.usage': [
    ['pro', {}],
    ['free', {}],
  ],
  // profiles: the unlimited key, so generations_left is null (absent) on both fronts
  'profile.generate': [
    ['unlimited', { country: 'DE', seed: 'parity' }],
    ['unlimited', { swift_code: 'COBADEFFXXX', seed: 'parity' }],
    ['pro', { age_min: 90, age_max: 20 }],
    ['pro', { country: 'DE', bank_name: 'No Such Bank Anywhere' }],
  ],
  'profile.ai': [['unlimited', { country: 'FR', gender: 'male', seed: 'parity' }]],
  // fixture manifests, VoP benchmark, payment scenarios
  'manifest.spec': [['free', {}]],
  'manifest.schema': [['free', {}]],
  'manifest.compile': [
    [
      'pro',
      {
        seed: 'parity',
        fixtures: [
          { country: 'DE', iban: 'DE89370400440532013000', expected_valid: true },
          { country: 'FR', iban: 'FR00', expected_valid: false },
        ],
      },
    ],
    [
      'starter',
      { fixtures: [{ country: 'DE', iban: 'DE89370400440532013000', expected_valid: true }] },
    ],
    ['pro', { fixtures: [] }],
  ],
  'vop.catalog': [
    ['business', {}],
    ['pro', {}],
  ],
  'vop.compile': [
    ['business', { seed: 'parity', limit: 30 }],
    ['business', { limit: 0 }],
    ['pro', {}],
  ],
  'vop.score': [
    [
      'business',
      {
        seed: 'parity',
        limit: 3,
        labels: [
          { row_id: 'r0', label: 'MATCH' },
          { row_id: 'r1', label: 'NO_MATCH' },
        ],
      },
    ],
    ['business', { labels: [{ row_id: 'r5000', label: 'MATCH' }] }],
  ],
  'scenarios.catalog': [['free', {}]],
  'scenarios.compile': [
    ['business', { scenario: 'sct_recall', seed: 'parity', vop_outcome: 'CLOSE_MATCH' }],
    ['business', { scenario: 'sdd_core_returned', seed: 'parity', amount: '19.99' }],
    ['business', { currency: 'USD' }],
    ['pro', {}],
  ],
  // A completed review's parity is in test/grpc/statements.test.ts (it needs an upload first).
  'statements.review': [['pro', { review_id: '0123456789abcdef0123456789abcdef' }]],
  'statements.review.delete': [['pro', { review_id: '0123456789abcdef0123456789abcdef' }]],
};

/** JSON null and an absent proto3 optional field mean the same; so do an empty list and an absent repeated field. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) {
      if (entry === null || entry === undefined || (Array.isArray(entry) && entry.length === 0))
        continue;
      out[key] = normalize(entry);
    }
    return out;
  }
  return value;
}

/** The REST form of a sample: `:name` path segments from the body, the rest as query (GET, DELETE) or JSON body. */
function callRest(
  http: { method: string; path: string },
  key: string,
  body: Record<string, unknown>,
) {
  const rest = { ...body };
  const path = http.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  if (http.method === 'POST') return call(service.base, path, { key, body: rest });
  const query = new URLSearchParams(
    Object.entries(rest).map(([name, value]) => [name, String(value)]),
  ).toString();
  return call(service.base, query === '' ? path : `${path}?${query}`, { key, method: http.method });
}

/** Ops served over REST whose RPC is unary (a client-streaming upload is compared in its own test). */
const unaryHttpOps = ops.filter((op) => op.http !== null && op.grpc.stream === undefined);

test('every unary operation has parity samples', () => {
  const unaryOps = unaryHttpOps.map((op) => op.name);
  assert.deepEqual(Object.keys(samples).sort(), unaryOps.sort());
});

test('REST and gRPC give the same outputs and the same errors', async () => {
  for (const op of unaryHttpOps) {
    for (const [plan, body] of samples[op.name] ?? []) {
      const rest = await callRest(op.http!, service.keys[plan], body);
      const grpc = await unary(client, op.grpc.method, body, keyMetadata(service.keys[plan]));
      const label = `${op.name} ${JSON.stringify(body)}`;
      if (rest.status >= 400) {
        assert.ok(grpc.error, `${label}: gRPC must fail too`);
        assert.equal(grpc.error.metadata.get('error')[0], rest.body.error, label);
        const code = Object.entries(httpStatusOf).find(
          ([candidate, line]) =>
            line.startsWith(String(rest.status)) &&
            grpcStatusOf[candidate as keyof typeof grpcStatusOf] === grpc.error!.code,
        );
        assert.ok(
          code,
          `${label}: HTTP ${rest.status} and gRPC ${grpc.error.code} come from one error code`,
        );
        continue;
      }
      assert.equal(grpc.error, null, `${label}: ${grpc.error?.message}`);
      if (rest.headers.get('content-type')?.startsWith('text/csv'))
        assert.equal(grpc.response.csv, rest.text, label);
      else if (op.grpc.wrap === 'rows')
        assert.deepEqual(normalize(grpc.response.rows), normalize(rest.body), label);
      // Ops that shape their gRPC message (exact JSON text, role-keyed lists) are compared in that shape.
      else
        assert.deepEqual(
          normalize(grpc.response),
          normalize(op.grpc.toMessage === undefined ? rest.body : op.grpc.toMessage(rest.body)),
          label,
        );
    }
  }
});
