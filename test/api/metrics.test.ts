// /metrics as an operator graphs it, against the real service (uWS, grpc-js, piscina, LMDB): requests made over
// REST and gRPC move the duration histogram of their op, transport and outcome class by exactly the number made; a
// pooled run moves the pool task histogram, a keyed debit the ledger commit latency, a statement review the analysis
// histogram by its outcome; the registry info metric names the version and fingerprint responses carry, and only the
// current one after an import; requests answered by a REST front thread are counted too. Expected numbers are the
// test's own requests and what the API answered, read back from the exposition text with the parser below.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { ops } from '../../src/ops/table.js';
import { readFixture } from '../fixtures/registry/paths.js';
import { grpcClient, keyMetadata, unary, type IbanQaClient } from '../helpers/grpc-client.js';
import { importIntoRegistry } from '../helpers/registry-import.js';
import { call, creditsUsed, startTestService, type TestService } from '../helpers/service.js';
import { settle, upload } from '../statements/client.js';
import { encryptedPdf, statementPdf } from '../statements/corpus.js';
import { germanSpec } from '../statements/samples.js';

/** Small enough that a 30-IBAN validate or a 50-row bulk dataset runs in the pool, a 2-IBAN validate inline. */
const POOL_THRESHOLD = 20;
const IBANS = ['DE89370400440532013000', 'GB82WEST12345698765432'];
/** The documented range of the request histogram (README, Metrics): 100 µs to 10 s. */
const REQUEST_BUCKETS = { first: 0.0001, last: 10 };

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** Prometheus text exposition format 0.0.4: `name{label="value",...} number`; comments skipped. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1]!] = pair[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

class Scrape {
  constructor(readonly samples: readonly Sample[]) {}

  /** The series whose labels are exactly `labels`; 0 when it does not exist (nothing observed yet). */
  value(name: string, labels: Record<string, string> = {}): number {
    const want = Object.entries(labels);
    const found = this.samples.filter(
      (sample) =>
        sample.name === name &&
        Object.keys(sample.labels).length === want.length &&
        want.every(([label, value]) => sample.labels[label] === value),
    );
    assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)} is listed twice`);
    return found[0]?.value ?? 0;
  }

  series(name: string): Sample[] {
    return this.samples.filter((sample) => sample.name === name);
  }
}

async function scrape(service: TestService): Promise<Scrape> {
  const response = await fetch(`${service.base.replace('/api/v1', '')}/metrics`);
  assert.equal(response.status, 200);
  return new Scrape(parseExposition(await response.text()));
}

/** Count, sum and +Inf bucket of one histogram series, as moved between two scrapes. */
function moved(
  before: Scrape,
  after: Scrape,
  histogram: string,
  labels: Record<string, string> = {},
): { count: number; sum: number; infinity: number } {
  const delta = (suffix: string, extra: Record<string, string> = {}) =>
    after.value(`${histogram}${suffix}`, { ...labels, ...extra }) -
    before.value(`${histogram}${suffix}`, { ...labels, ...extra });
  return { count: delta('_count'), sum: delta('_sum'), infinity: delta('_bucket', { le: '+Inf' }) };
}

/** Each histogram series's buckets are cumulative: non-decreasing with `le`, the +Inf bucket equal to the count. */
function assertCumulative(scrape: Scrape, histogram: string): void {
  const groups = new Map<string, Sample[]>();
  for (const sample of scrape.series(`${histogram}_bucket`)) {
    const { le: _le, ...rest } = sample.labels;
    const key = JSON.stringify(rest);
    groups.set(key, [...(groups.get(key) ?? []), sample]);
  }
  assert.ok(groups.size > 0, `${histogram} has series`);
  for (const [key, buckets] of groups) {
    const sorted = buckets
      .map((bucket) => ({ le: Number(bucket.labels.le), value: bucket.value }))
      .sort((a, b) => a.le - b.le);
    for (let i = 1; i < sorted.length; i++)
      assert.ok(sorted[i]!.value >= sorted[i - 1]!.value, `${histogram} ${key} is cumulative`);
    assert.equal(
      sorted.at(-1)!.value,
      scrape.value(`${histogram}_count`, JSON.parse(key) as Record<string, string>),
    );
  }
}

function grpcValidate(client: IbanQaClient, ibans: readonly string[], key?: string) {
  return unary(client, 'Validate', { ibans }, keyMetadata(key));
}

const ibansOf = (count: number) => Array.from({ length: count }, (_, i) => IBANS[i % 2]!);

let service: TestService;
let client: IbanQaClient;
before(async () => {
  service = await startTestService({
    env: { IBANQA_POOL_THRESHOLD_ROWS: String(POOL_THRESHOLD) },
  });
  client = grpcClient(service.grpcAddress);
});
after(async () => {
  client.close();
  await service.dispose();
});

describe('request duration per operation, transport and outcome', () => {
  test('REST and gRPC requests move their series by the number made, in their outcome class', async () => {
    const key = service.keys.pro;
    const before = await scrape(service);
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await call(service.base, '/validate', { key, body: { ibans: IBANS } })).status,
        200,
      );
    for (let i = 0; i < 2; i++) {
      const refused = await call(service.base, '/generate', { key, body: { nonsense: true } });
      assert.equal(refused.status, 400, refused.text);
    }
    for (let i = 0; i < 2; i++) assert.equal((await grpcValidate(client, IBANS, key)).error, null);
    const unauthenticated = await grpcValidate(client, IBANS);
    assert.ok(unauthenticated.error !== null, 'gRPC Validate without a key is refused');
    const after = await scrape(service);

    const expected = [
      { op: 'iban.validate', transport: 'rest', outcome: 'ok', count: 3 },
      { op: 'iban.generate', transport: 'rest', outcome: 'client_error', count: 2 },
      { op: 'iban.validate', transport: 'grpc', outcome: 'ok', count: 2 },
      { op: 'iban.validate', transport: 'grpc', outcome: 'client_error', count: 1 },
    ];
    for (const { count, ...labels } of expected) {
      const delta = moved(before, after, 'ibanqa_request_duration_seconds', labels);
      assert.equal(delta.count, count, JSON.stringify(labels));
      assert.equal(delta.infinity, count, JSON.stringify(labels));
      assert.ok(delta.sum > 0, JSON.stringify(labels));
    }
    assert.equal(
      moved(before, after, 'ibanqa_request_duration_seconds', {
        op: 'iban.validate',
        transport: 'rest',
        outcome: 'server_error',
      }).count,
      0,
    );
    assertCumulative(after, 'ibanqa_request_duration_seconds');
  });

  test('a request is timed within what the client waited', async () => {
    const before = await scrape(service);
    const started = performance.now();
    const reply = await call(service.base, '/validate', {
      key: service.keys.pro,
      body: { ibans: IBANS },
    });
    const waitedSeconds = (performance.now() - started) / 1000;
    assert.equal(reply.status, 200);
    const delta = moved(before, await scrape(service), 'ibanqa_request_duration_seconds', {
      op: 'iban.validate',
      transport: 'rest',
      outcome: 'ok',
    });
    assert.equal(delta.count, 1);
    assert.ok(delta.sum > 0 && delta.sum <= waitedSeconds, `${delta.sum} s of ${waitedSeconds} s`);
  });

  test('labels come from closed sets: op names, two transports, three outcome classes; buckets 100 µs to 10 s', async () => {
    await call(service.base, '/validate', { body: { ibans: IBANS } });
    await call(service.base, '/usage', { key: service.keys.starter });
    const text = await (await fetch(`${service.base.replace('/api/v1', '')}/metrics`)).text();
    const samples = new Scrape(parseExposition(text));
    const opNames = new Set(ops.map((op) => op.name));
    const series = samples.series('ibanqa_request_duration_seconds_bucket');
    assert.ok(series.length > 0);
    for (const { labels } of series) {
      assert.deepEqual(Object.keys(labels).sort(), ['le', 'op', 'outcome', 'transport']);
      assert.ok(opNames.has(labels.op!), labels.op);
      assert.ok(['rest', 'grpc'].includes(labels.transport!), labels.transport);
      assert.ok(['ok', 'client_error', 'server_error'].includes(labels.outcome!), labels.outcome);
    }
    const bounds = [...new Set(series.map(({ labels }) => labels.le!))]
      .map((le) => (le === '+Inf' ? Infinity : Number(le)))
      .sort((a, b) => a - b);
    assert.equal(bounds[0], REQUEST_BUCKETS.first);
    assert.equal(bounds.at(-2), REQUEST_BUCKETS.last);
    assert.equal(bounds.at(-1), Infinity);
    // No key, key id, IBAN or client address is a label value.
    for (const account of service.running.store.listKeys()) assert.ok(!text.includes(account.id));
    for (const raw of Object.values(service.keys)) assert.ok(!text.includes(raw));
    for (const iban of IBANS) assert.ok(!text.includes(iban));
    assert.ok(!text.includes('127.0.0.1'));
  });
});

describe('worker pool', () => {
  test('a pooled run moves the pool task histogram of its op; an inline one does not', async () => {
    const before = await scrape(service);
    const bulk = await call(service.base, '/bulk-dataset', {
      key: service.keys.pro,
      body: { country: 'DE', quantity: POOL_THRESHOLD + 30, seed: 'metrics' },
    });
    assert.equal(bulk.status, 200, bulk.text);
    const pooled = await grpcValidate(client, ibansOf(POOL_THRESHOLD + 10), service.keys.pro);
    assert.equal(pooled.error, null);
    const inline = await grpcValidate(client, IBANS, service.keys.pro);
    assert.equal(inline.error, null);
    const after = await scrape(service);
    const task = (name: string) =>
      moved(before, after, 'ibanqa_pool_task_duration_seconds', { task: name, outcome: 'ok' });
    assert.equal(task('iban.bulk_dataset').count, 1);
    assert.equal(task('iban.validate').count, 1, 'only the validate at the threshold was pooled');
    assert.ok(task('iban.bulk_dataset').sum > 0);
    assertCumulative(after, 'ibanqa_pool_task_duration_seconds');
    // Idle between requests: nothing waits for a worker.
    assert.equal(after.value('ibanqa_pool_queue_depth'), 0);
  });

  test('the queue depth gauge counts tasks waiting for a worker while the pool is busy', async () => {
    // Two workers (test service): four pooled requests at once leave at most two waiting. Whether a scrape lands
    // while they wait depends on scheduling, so a few rounds are allowed to see one.
    const key = service.keys.unlimited;
    const body = { country: 'DE', quantity: 1_000, seed: 'queue' };
    let deepest = 0;
    for (let round = 0; round < 5 && deepest === 0; round++) {
      let settled = false;
      const all = Promise.all(
        Array.from({ length: 4 }, () => call(service.base, '/bulk-dataset', { key, body })),
      ).finally(() => (settled = true));
      while (!settled)
        deepest = Math.max(deepest, (await scrape(service)).value('ibanqa_pool_queue_depth'));
      for (const reply of await all) assert.equal(reply.status, 200, reply.text);
    }
    assert.ok(deepest >= 1 && deepest <= 2, `deepest queue seen: ${deepest}`);
    assert.equal((await scrape(service)).value('ibanqa_pool_queue_depth'), 0);
  });
});

describe('ledger commit latency', () => {
  test('every keyed debit is one observation, concurrent ones too; keyless and free calls none', async () => {
    const before = await scrape(service);
    const key = service.keys.starter;
    for (let i = 0; i < 2; i++)
      assert.equal(
        (await call(service.base, '/validate', { key, body: { ibans: IBANS } })).status,
        200,
      );
    // Concurrent debits of one key share one durable write; each is still timed from its own commit.
    const together = await Promise.all(
      Array.from({ length: 6 }, () =>
        call(service.base, '/validate', { key, body: { ibans: IBANS } }),
      ),
    );
    for (const reply of together) assert.equal(reply.status, 200);
    assert.equal((await call(service.base, '/validate', { body: { ibans: IBANS } })).status, 200);
    assert.equal((await call(service.base, '/usage', { key })).status, 200);
    const delta = moved(before, await scrape(service), 'ibanqa_ledger_commit_duration_seconds');
    assert.equal(delta.count, 8);
    assert.equal(delta.infinity, 8);
    assert.ok(delta.sum > 0);
  });
});

describe('statement analysis duration', () => {
  test('each analysis is observed under the outcome the review reports', async () => {
    const key = service.keys.pro;
    const before = await scrape(service);
    const outcomes: string[] = [];
    for (const bytes of [
      await statementPdf(germanSpec),
      encryptedPdf(await statementPdf(germanSpec)),
    ]) {
      const accepted = await upload(service.base, bytes, { key });
      assert.equal(accepted.status, 202, accepted.text);
      const done = await settle(service.base, key, accepted.body.review_id);
      assert.equal(done.status, 200, done.text);
      outcomes.push(done.body.status === 'completed' ? 'completed' : done.body.failure.reason);
    }
    assert.deepEqual(outcomes, ['completed', 'encrypted_document']);
    const after = await scrape(service);
    for (const outcome of outcomes) {
      const delta = moved(before, after, 'ibanqa_statement_analysis_duration_seconds', { outcome });
      assert.equal(delta.count, 1, outcome);
      assert.ok(delta.sum > 0, outcome);
    }
    // Both ran in the pool: one result each (a document's failure comes back as data, `error`).
    const task = (outcome: string) =>
      moved(before, after, 'ibanqa_pool_task_duration_seconds', {
        task: 'statement-analysis',
        outcome,
      }).count;
    assert.equal(task('ok'), 1);
    assert.equal(task('error'), 1);
  });
});

describe('registry info', () => {
  const registryOf = async () => {
    const reply = await call(service.base, '/bank-intelligence/sources', {
      key: service.keys.business,
    });
    assert.equal(reply.status, 200, reply.text);
    return reply.body.registry as { fingerprint: string; version: number };
  };
  const infoOf = (scraped: Scrape) => {
    const series = scraped.series('ibanqa_registry_info');
    assert.equal(series.length, 1, JSON.stringify(series));
    assert.equal(series[0]!.value, 1);
    return series[0]!.labels;
  };

  test('names the version and fingerprint responses carry, and only the current one after an import', async () => {
    const first = await registryOf();
    assert.deepEqual(infoOf(await scrape(service)), {
      version: String(first.version),
      fingerprint: first.fingerprint,
    });
    await importIntoRegistry(service.dataDir, [
      {
        file: {
          sourceId: 'bundesbank-blz',
          bytes: readFixture('bundesbank-synthetic-latin1.txt'),
          fileName: 'bundesbank-synthetic.txt',
          snapshotDate: '2026-01-01',
        },
      },
    ]);
    // Scraped before any request: the scrape itself reads the version committed now.
    const info = infoOf(await scrape(service));
    const second = await registryOf();
    assert.ok(second.version > first.version && second.fingerprint !== first.fingerprint);
    assert.deepEqual(info, { version: String(second.version), fingerprint: second.fingerprint });
  });
});

/** One request over a fresh connection, so successive ones may land on different front threads. */
function freshConnection(base: string, path: string, key: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const request = http.request(
      `${base}${path}`,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'x-api-key': key },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

test('with REST front threads, requests a front thread answered are in the main thread scrape', async () => {
  const threaded = await startTestService({ env: { IBANQA_HTTP_THREADS: '2' } });
  try {
    const before = await scrape(threaded);
    const usedBefore = creditsUsed(threaded, threaded.keys.pro);
    const requests = 24;
    for (let i = 0; i < requests; i++)
      assert.equal(
        await freshConnection(threaded.base, '/validate', threaded.keys.pro, { ibans: IBANS }),
        200,
      );
    const after = await scrape(threaded);
    const front = (scraped: Scrape) =>
      scraped.value('ibanqa_rest_thread_requests_total', { thread: 'front-1' });
    assert.ok(front(after) - front(before) > 0, 'the front thread answered some of them');
    const labels = { op: 'iban.validate', transport: 'rest', outcome: 'ok' };
    assert.equal(moved(before, after, 'ibanqa_request_duration_seconds', labels).count, requests);
    // Front threads spend from credit leases: the ledger's commits are lease writes (grants, one turn's spends,
    // returns), not one per request. So: commits were observed, and every request was debited exactly once.
    assert.ok(moved(before, after, 'ibanqa_ledger_commit_duration_seconds').count > 0);
    assert.equal(creditsUsed(threaded, threaded.keys.pro) - usedBefore, requests * IBANS.length);
    assertCumulative(after, 'ibanqa_request_duration_seconds');
    // Process metrics are the main thread's, listed once.
    assert.equal(after.series('ibanqa_pool_queue_depth').length, 1);
    assert.equal(after.series('ibanqa_registry_info').length, 1);
  } finally {
    await threaded.dispose();
  }
});
