// Goal: the service has one clock, and a test pins it end to end: startService hands the same clock to the ledger
// (period ends in GET /usage and X-RateLimit-Reset), the key store and the pool workers (a pooled bulk dataset's
// profile ages are counted on the pinned day, not the machine's). Method: the real service over REST with a clock
// fixed in another year; expected dates computed here from the pinned instant alone.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { call, startTestService, type TestService } from '../helpers/service.js';

/** Far from the machine's clock, so an answer read from the system clock cannot pass by chance. */
const pinned = new Date('2031-02-14T10:30:00.000Z');
/** The pro plan's credits renew monthly: the period ends at the first instant of the next UTC month. */
const nextMonth = '2031-03-01T00:00:00.000Z';

/** Whole years from a YYYY-MM-DD birth date to the pinned UTC day. */
function ageOnPinnedDay(birth: string): number {
  const [year, month, day] = birth.split('-').map(Number) as [number, number, number];
  const had =
    pinned.getUTCMonth() + 1 > month ||
    (pinned.getUTCMonth() + 1 === month && pinned.getUTCDate() >= day);
  return pinned.getUTCFullYear() - year - (had ? 0 : 1);
}

let service: TestService;
before(async () => {
  // Requests of 50 rows and more run in the worker pool; one REST thread, as a pinned clock requires
  // (also under IBANQA_TEST_HTTP_THREADS).
  service = await startTestService({
    clock: () => new Date(pinned),
    env: { IBANQA_POOL_THRESHOLD_ROWS: '50', IBANQA_HTTP_THREADS: '1' },
  });
});
after(async () => {
  await service.dispose();
});

describe('a pinned clock, end to end over REST', () => {
  it('GET /usage reports the period of the pinned month, and X-RateLimit-Reset says when it ends', async () => {
    const reply = await call(service.base, '/usage', { key: service.keys.pro });
    assert.equal(reply.status, 200, reply.text);
    for (const kind of ['api_calls', 'profiles', 'bic_reveals', 'exports'])
      assert.equal(reply.body.credits[kind].period_end, nextMonth, kind);
    const generated = await call(service.base, '/generate', {
      key: service.keys.pro,
      body: { country: 'AT', quantity: 1 },
    });
    assert.equal(generated.status, 200, generated.text);
    assert.equal(generated.headers.get('x-ratelimit-reset'), nextMonth);
  });

  it('demo keys are created at the pinned time', () => {
    for (const key of service.running.store.listKeys())
      assert.equal(key.created_at, pinned.toISOString(), key.plan);
  });

  it('a pooled bulk dataset counts profile ages on the pinned day, as an inline one does', async () => {
    const body = { country: 'DE', seed: 'pinned-clock', include_profiles: true };
    const pooled = await call(service.base, '/bulk-dataset', {
      key: service.keys.unlimited,
      body: { ...body, quantity: 60 },
    });
    assert.equal(pooled.status, 200, pooled.text);
    assert.ok(service.running.poolThreads() > 0, 'the 60 rows ran in the worker pool');
    const inline = await call(service.base, '/bulk-dataset', {
      key: service.keys.unlimited,
      body: { ...body, quantity: 10 },
    });
    assert.equal(inline.status, 200, inline.text);
    for (const row of [...pooled.body.rows, ...inline.body.rows]) {
      const { date_of_birth: birth, age } = row.profile as { date_of_birth: string; age: number };
      assert.equal(age, ageOnPinnedDay(birth), `${birth} is ${age} on ${pinned.toISOString()}`);
    }
    assert.deepEqual(pooled.body.rows.slice(0, 10), inline.body.rows);
  });
});

describe('a pinned clock and REST front threads', () => {
  it('is refused at start with more than one REST thread, whose fronts would read the system clock', async () => {
    // The refusal comes before the service opens anything; the directory stays empty.
    const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-pinned-'));
    try {
      await assert.rejects(
        startTestService({
          dataDir,
          clock: () => new Date(pinned),
          env: { IBANQA_HTTP_THREADS: '2' },
        }),
        /a pinned clock runs with one REST thread only \(IBANQA_HTTP_THREADS is 2\)/,
      );
      assert.deepEqual(readdirSync(dataDir), []);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
