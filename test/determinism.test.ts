// Seeded output depends only on (seed, parameters, row, registry): byte for byte the same across fresh service
// processes, worker counts 1 and 2, and inline vs pool execution, and pinned across releases by golden hashes.
// Method: three real service processes (src/main.ts, started one after another, each with a fresh data dir and the
// registry the first one built from the embedded default), configured only through the environment the operator would use (IBANQA_POOL_THREADS,
// IBANQA_POOL_THRESHOLD_ROWS); REST bodies compared as raw bytes, GenerateStream rows over a real grpc-js client.
// Changing a golden value below is a breaking change.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { ClientReadableStream } from '@grpc/grpc-js';
import { isValidIBAN } from 'ibantools';
import { grpcClient, keyMetadata } from './helpers/grpc-client.js';
import { startServiceProcess, type ServiceProcess } from './helpers/service-process.js';

const requests = [
  ['/generate', { country: 'DE', quantity: 4, seed: 'golden' }],
  ['/generate', { country: 'GB', quantity: 3, seed: 'golden', include_bank_details: true }],
  ['/bulk-dataset', { country: 'NL', quantity: 6, seed: 'golden', include_bank_details: false }],
  ['/test-cases', { country: 'PT', quantity: 6, seed: 'golden' }],
  // Pooled runs serialize in the worker: JSON and CSV bodies must equal the inline ones byte for byte.
  ['/bulk-dataset', { country: 'BE', quantity: 40, seed: 'golden', output: 'csv' }],
  ['/generate', { country: 'FR', quantity: 100, seed: 'golden', include_bank_details: true }],
  ['/bulk-dataset', { country: 'IT', quantity: 3_000, seed: 'golden' }],
  // The first rows of the GenerateStream below.
  ['/generate', { country: 'DE', quantity: 100, seed: 'golden', include_bank_details: true }],
] as const;
/** Three chunks of 1,000 rows and a partial one: each chunk is its own task when pooled. */
const streamRequest = { country: 'DE', count: 2_500, seed: 'golden', include_bank_details: true };

/** Pinned first rows, checked against ibantools below. Regenerate only for a deliberate, announced breaking change. */
/**
 * Changed deliberately: real bank codes of the embedded registry by default (Bundesbank table of 2025-09-08), then
 * live customer codes only (no deleted, marked-for-deletion, internal or removed codes; see generation-banks.ts).
 */
const goldenDe = [
  'DE39201205200005004077',
  'DE51701205000003927369',
  'DE13280621656259308095',
  'DE77770690440984984102',
];
/**
 * SHA-256 (first 16 hex) of each REST body in `requests` order (re-pinned once, deliberately, for real bank codes by default;
 * the GB and FR bodies once more, deliberately, for the national BBAN conventions: GB sort codes in the bank's
 * allocation, FR accounts of digits; the DE bodies and the stream once more for live customer codes only), then of
 * the GenerateStream rows as JSON. Bodies with
 * bank details also pin the embedded registry data: a new bankdata-germany or iban-to-bic release changes them.
 */
const goldenHashes = {
  rest: [
    '331c522c61698eea',
    '581c6189984bfefa',
    '2c5ecc2bbeed9767',
    '239976c0c2c9b433',
    '34540d8f54676ddb',
    'a98312d341d00f57',
    'ef10634a330e1852',
    '5f184e75ab95c4fa',
  ],
  stream: 'cb7c8437704a6b06',
};

interface Outputs {
  readonly rest: string[];
  readonly stream: string;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

async function post(service: ServiceProcess, path: string, body: unknown): Promise<string> {
  const response = await fetch(`${service.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': service.unlimitedKey },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  assert.equal(response.status, 200, `${path}: ${text.slice(0, 200)}`);
  return text;
}

async function streamRows(service: ServiceProcess): Promise<string> {
  const client = grpcClient(service.grpcAddress);
  try {
    const rows: unknown[] = [];
    const stream = client.GenerateStream!(
      streamRequest,
      keyMetadata(service.unlimitedKey),
    ) as ClientReadableStream<{ rows: unknown[] }>;
    await new Promise<void>((resolve, reject) => {
      stream.on('data', (chunk: { rows: unknown[] }) => rows.push(...chunk.rows));
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    assert.equal(rows.length, streamRequest.count);
    return JSON.stringify(rows);
  } finally {
    client.close();
  }
}

/**
 * One fresh service process with this pool configuration, sending `parallel` REST requests at a time: two with two
 * workers, so the tasks are spread over both (more would meet the pool's queue bound, threads², as 503 overloaded).
 */
async function outputsOf(env: NodeJS.ProcessEnv, parallel: number): Promise<Outputs> {
  const service = await startServiceProcess(env, registryDir);
  try {
    const rest: string[] = [];
    for (let start = 0; start < requests.length; start += parallel) {
      const batch = requests.slice(start, start + parallel);
      rest.push(...(await Promise.all(batch.map(([path, body]) => post(service, path, body)))));
    }
    return { rest, stream: await streamRows(service) };
  } finally {
    if (registryDir === undefined) {
      // The next processes start from a copy of this one's registry, copied after it stopped.
      await service.stop();
      registryDir = service.dataDir;
    } else {
      await service.dispose();
    }
  }
}

/** The data dir whose registry later processes copy; kept until the end. */
let registryDir: string | undefined;
const inlineRows = '1000000';
const pooledRows = '1';
const runs = new Map<string, Outputs>();

describe('seeded output across processes, worker counts and inline vs pool', () => {
  before(async () => {
    // One after another: services at once would compete for the machine's two cores.
    runs.set(
      'inline',
      await outputsOf({ IBANQA_POOL_THREADS: '2', IBANQA_POOL_THRESHOLD_ROWS: inlineRows }, 1),
    );
    runs.set(
      'pool, 1 worker',
      await outputsOf({ IBANQA_POOL_THREADS: '1', IBANQA_POOL_THRESHOLD_ROWS: pooledRows }, 1),
    );
    runs.set(
      'pool, 2 workers',
      await outputsOf({ IBANQA_POOL_THREADS: '2', IBANQA_POOL_THRESHOLD_ROWS: pooledRows }, 2),
    );
  });
  after(() => {
    runs.clear();
    if (registryDir !== undefined) rmSync(registryDir, { recursive: true, force: true });
  });

  const pairs = [
    ['inline', 'pool, 1 worker', 'inline vs pool, two fresh processes'],
    ['pool, 1 worker', 'pool, 2 workers', 'one worker vs two, two fresh processes'],
    ['inline', 'pool, 2 workers', 'inline vs pool with two workers, two fresh processes'],
  ] as const;
  for (const [a, b, what] of pairs) {
    it(`${what}: REST bodies and GenerateStream rows are byte-identical (${a} / ${b})`, () => {
      const left = runs.get(a);
      const right = runs.get(b);
      assert.ok(left !== undefined && right !== undefined);
      left.rest.forEach((body, index) =>
        assert.equal(right.rest[index], body, `${requests[index]?.[0]} #${index}`),
      );
      assert.equal(right.stream, left.stream);
    });
  }

  it('GenerateStream row i equals row i of POST /generate with the same seed', () => {
    const outputs = runs.get('pool, 2 workers');
    assert.ok(outputs !== undefined);
    const stream = JSON.parse(outputs.stream) as { iban: string; bank_name: string | null }[];
    const generate = JSON.parse(outputs.rest[requests.length - 1] ?? '[]') as {
      iban: string;
      bank_name: string | null;
    }[];
    assert.equal(generate.length, 100);
    assert.deepEqual(
      stream.slice(0, 100).map((row) => [row.iban, row.bank_name ?? null]),
      generate.map((row) => [row.iban, row.bank_name]),
    );
  });

  it('is pinned: golden first rows (valid IBANs by ibantools) and golden hashes of every body', () => {
    const outputs = runs.get('inline');
    assert.ok(outputs !== undefined);
    for (const iban of goldenDe) assert.ok(isValidIBAN(iban), iban);
    assert.deepEqual(
      (JSON.parse(outputs.rest[0] ?? '[]') as { iban: string }[]).map((row) => row.iban),
      goldenDe,
    );
    assert.deepEqual(outputs.rest.map(sha), goldenHashes.rest);
    assert.equal(sha(outputs.stream), goldenHashes.stream);
  });
});
