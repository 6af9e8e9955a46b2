// Goal: the US routing API with a loaded directory is tested everywhere, also where ../shared (the real Fed files)
// is absent: lookup observations and rails, targets and paging, metered check-list, quote and run (exact debit,
// replay, conflict) and a stale quote once the directory file changes.
// Method: the real service with IBANQA_US_DIRECTORY_FILES naming the SYNTHETIC FedACH and Fedwire fixtures of
// test/fixtures/registry (prefix 99, which no Federal Reserve district uses), or a changed copy of one.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { call, type TestService } from '../helpers/service.js';
import { newRequestId, startWithDirectory, usageOf } from './us-routing-helpers.js';

const fixtures = fileURLToPath(new URL('../fixtures/registry/', import.meta.url));
const fedach = join(fixtures, 'fedach-synthetic.txt');
const fedwire = join(fixtures, 'fedwire-synthetic.txt');
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
/** The routing numbers the fixtures list: both files list 990000013; FedACH also 990000026, Fedwire 990000039. */
const both = '990000013';

/** Independent restatement of the rule: 3(d1+d4+d7) + 7(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
function checksumHolds(number: string): boolean {
  const d = [...number].map(Number);
  const sum = (a: number, b: number, c: number) => (d[a] ?? 0) + (d[b] ?? 0) + (d[c] ?? 0);
  return (3 * sum(0, 3, 6) + 7 * sum(1, 4, 7) + sum(2, 5, 8)) % 10 === 0;
}

let service: TestService;
const scratch = mkdtempSync(join(tmpdir(), 'ibanqa-us-synthetic-'));
before(async () => {
  service = await startWithDirectory(`fedach:${fedach},fedwire:${fedwire}`);
});
after(async () => {
  await service.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

const post = (path: string, key: string, body: unknown) => call(service.base, path, { key, body });
const get = (path: string, key: string) => call(service.base, path, { key });

interface Target {
  readonly target_id: string;
  readonly routing_number: string;
  readonly source_id: string;
  readonly source_sha256: string;
  readonly name: string;
}

async function targets(key: string): Promise<Target[]> {
  const reply = await get('/us/routing/targets?limit=100', key);
  assert.equal(reply.status, 200, reply.text);
  return reply.body.results as Target[];
}

describe('US routing over the synthetic directory fixtures', () => {
  it('a lookup reports checksum, prefix and directory apart: listed by both files, prefix 99 still invalid', async () => {
    assert.ok(checksumHolds(both));
    const key = service.keys.starter;
    const before = usageOf(service, key);
    const reply = await get(`/us/routing/${both}`, key);
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(
      [reply.body.checksum.valid, reply.body.checksum.error],
      [false, 'invalid_prefix'],
    );
    assert.equal(reply.body.directory.status, 'loaded');
    assert.equal(reply.body.directory.observed, true);
    assert.deepEqual(
      reply.body.directory.observations.map((o: { source_id: string }) => o.source_id),
      ['fedach', 'fedwire'],
    );
    assert.deepEqual(
      reply.body.directory.observations.map((o: { source_sha256: string }) => o.source_sha256),
      [sha256(fedach), sha256(fedwire)],
    );
    assert.deepEqual(reply.body.payment_rails, { ach: 'observed', wire: 'observed' });
    assert.equal(usageOf(service, key).api_calls! - before.api_calls!, 1);
  });

  it('targets: one per file and number, names as published, pages with limit and offset', async () => {
    const all = await targets(service.keys.starter);
    assert.deepEqual(all.map((t) => `${t.source_id}:${t.routing_number}`).sort(), [
      'fedach:990000013',
      'fedach:990000026',
      'fedwire:990000013',
      'fedwire:990000039',
    ]);
    assert.ok(
      all.every((t) => t.source_sha256 === sha256(t.source_id === 'fedach' ? fedach : fedwire)),
    );
    assert.ok(all.some((t) => t.name === 'SYNTHETIC TEST BANK BRANCH'));
    const seen: string[] = [];
    for (let offset: number | null = 0; offset !== null;) {
      const page = await get(`/us/routing/targets?limit=1&offset=${offset}`, service.keys.starter);
      assert.equal(page.status, 200);
      assert.equal(page.body.total, 4);
      seen.push(...page.body.results.map((t: Target) => t.target_id));
      offset = page.body.next_offset as number | null;
    }
    assert.deepEqual(
      seen,
      all.map((t) => t.target_id),
    );
  });

  it('check-list: the directory column per row, one API credit per distinct number', async () => {
    const key = service.keys.starter;
    const before = usageOf(service, key);
    const list = [both, both, '990000026', '990000039', 'ABC', '011000015'];
    const reply = await post('/us/routing/check-list', key, { routing_numbers: list });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.distinct, 5);
    assert.deepEqual(
      reply.body.results.map((r: { directory: string }) => r.directory),
      ['observed', 'observed', 'observed', 'observed', 'not_observed', 'not_observed'],
    );
    assert.equal(usageOf(service, key).api_calls! - before.api_calls!, 5);
  });

  it('quote then run: debits exactly the quote once; an identical replay debits nothing; a changed body is 409', async () => {
    const key = service.keys.pro;
    const target = (await targets(key)).find(
      (t) => t.source_id === 'fedach' && t.routing_number === '990000026',
    );
    assert.ok(target !== undefined);
    const request = {
      routing_numbers: [both, '011000015'],
      seed: 'synthetic',
      generation: { target_id: target.target_id, source_sha256: target.source_sha256, quantity: 3 },
    };
    const quote = await post('/us/routing/quote', key, request);
    assert.equal(quote.status, 200, quote.text);
    assert.deepEqual(quote.body.credits, { api_calls: 2, bank_metadata: 3 });
    const body = { ...request, max_credits: quote.body.max_credits, request_id: newRequestId() };
    const before = usageOf(service, key);
    const run = await post('/us/routing/run', key, body);
    assert.equal(run.status, 200, run.text);
    const after = usageOf(service, key);
    assert.deepEqual(
      [after.api_calls! - before.api_calls!, after.bank_metadata! - before.bank_metadata!],
      [2, 3],
    );
    const rows = run.body.rows as {
      row_type: string;
      routing_number: string;
      account_number?: string;
    }[];
    assert.deepEqual(
      rows.map((row) => row.row_type),
      ['check', 'check', 'generated', 'generated', 'generated'],
    );
    for (const row of rows.slice(2)) {
      assert.equal(row.routing_number, '990000026');
      assert.match(row.account_number ?? '', /^[1-9]\d{7,11}$/);
    }
    const replay = await post('/us/routing/run', key, body);
    assert.equal(replay.body.replayed, true);
    // A replay answers the saved run and says it charged nothing this time.
    const charged = Object.fromEntries(
      Object.keys(run.body)
        .filter((field) => field.startsWith('charged_'))
        .map((field) => [field, 0]),
    );
    assert.deepEqual({ ...replay.body, replayed: false }, { ...run.body, ...charged });
    const changed = await post('/us/routing/run', key, {
      ...body,
      seed: 'another seed, same price',
    });
    assert.equal(changed.status, 409);
    assert.deepEqual(usageOf(service, key), after);
  });

  it('a quote made before the FedACH file changed is 409 "stale quote" at run time, nothing debited', async () => {
    const key = service.keys.business;
    const target = (await targets(key)).find(
      (t) => t.source_id === 'fedach' && t.routing_number === both,
    );
    assert.ok(target !== undefined);
    const request = {
      generation: { target_id: target.target_id, source_sha256: target.source_sha256, quantity: 2 },
    };
    const quote = await post('/us/routing/quote', key, request);
    assert.equal(quote.status, 200, quote.text);
    // The next release of the synthetic FedACH file: one name changed, so a new SHA-256.
    const changedFedach = join(scratch, 'fedach-changed.txt');
    writeFileSync(
      changedFedach,
      readFileSync(fedach, 'latin1').replace(
        'SYNTHETIC TEST BANK BRANCH',
        'SYNTHETIC TEST BANK BRANCX',
      ),
      'latin1',
    );
    await service.stop();
    service = await startWithDirectory(`fedach:${changedFedach},fedwire:${fedwire}`, {
      dataDir: service.dataDir,
    });
    const before = usageOf(service, key);
    const stale = await post('/us/routing/run', key, {
      ...request,
      max_credits: quote.body.max_credits,
      request_id: newRequestId(),
    });
    assert.equal(stale.status, 409, stale.text);
    assert.match(stale.body.message, /stale quote: directory changed/);
    assert.deepEqual(usageOf(service, key), before);
  });
});
