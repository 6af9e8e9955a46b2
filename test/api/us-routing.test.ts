// Goal: the US routing operations over REST behave as documented: checksum and prefix verdicts, directory
// observations kept apart from the checksum, seeded generation, target paging, plan gates and exact metering.
// Method: the real service with the 2018 FedACH and Fedwire releases from ../shared (never copied into the repo).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { abaCheckDigit, checkRoutingNumber } from '../../src/domain/routing/index.js';
import { call, creditsUsed, type TestService } from '../helpers/service.js';
import {
  assertReplayOf,
  directory2018,
  needsShared,
  sharedMissing,
  startWithDirectory,
  usageOf,
} from './us-routing-helpers.js';

let service: TestService;
before(async () => {
  service = await startWithDirectory(sharedMissing ? '' : directory2018);
});
after(async () => {
  await service.dispose();
});

const post = (path: string, key: string, body: unknown) => call(service.base, path, { key, body });
const get = (path: string, key: string | undefined) =>
  call(service.base, path, key === undefined ? {} : { key });

/** A checksum-valid number with `prefix` (two digits) and six body digits. */
function withCheckDigit(first8: string): string {
  return first8 + String(abaCheckDigit(first8));
}

describe('GET /us/routing/{routing_number}', () => {
  it(
    'checksum vectors: valid, wrong check digit, bad prefix (200 verdicts, one API credit each)',
    needsShared,
    async () => {
      const key = service.keys.starter;
      const before = creditsUsed(service, key, 'api_calls');
      const vectors: [string, boolean, string | null][] = [
        ['011000015', true, null],
        ['011000016', false, 'invalid_checksum'],
        ['325183657', true, null],
        ['130000006', false, 'invalid_prefix'],
        ['990000000', false, 'invalid_prefix'],
      ];
      for (const [number, valid, error] of vectors) {
        const reply = await get(`/us/routing/${number}`, key);
        assert.equal(reply.status, 200, number);
        assert.deepEqual(
          reply.body.checksum,
          { valid, error, expected_check_digit: checkRoutingNumber(number).expected_check_digit },
          number,
        );
      }
      assert.equal(creditsUsed(service, key, 'api_calls') - before, vectors.length);
    },
  );

  it(
    'keeps checksum, prefix, directory observations and payment rails in separate objects',
    needsShared,
    async () => {
      const reply = await get('/us/routing/011000015', service.keys.starter);
      assert.deepEqual(Object.keys(reply.body).sort(), [
        'charged_api_credits',
        'checksum',
        'directory',
        'payment_rails',
        'prefix',
        'routing_number',
        'success',
      ]);
      assert.equal(reply.body.charged_api_credits, 1);
      assert.equal(reply.body.prefix.reserve_bank_city, 'Boston');
      assert.equal(reply.body.directory.status, 'loaded');
      assert.equal(reply.body.directory.observed, true);
      assert.deepEqual(
        reply.body.directory.observations.map((o: { source_id: string }) => o.source_id),
        ['fedach', 'fedwire'],
      );
      for (const observation of reply.body.directory.observations) {
        assert.match(observation.source_sha256, /^[0-9a-f]{64}$/);
        assert.ok(['2018-12-04', '2018-12-03'].includes(observation.source_date));
      }
      assert.deepEqual(reply.body.payment_rails, { ach: 'observed', wire: 'observed' });
    },
  );

  it(
    'a checksum-valid number the directory does not list is valid, observed false (unknown is not invalid)',
    needsShared,
    async () => {
      // 12 CFR 229: 80 is the traveler's cheque prefix; the 2018 directories list no 80xxxxxxx number.
      const number = withCheckDigit('80123456');
      const reply = await get(`/us/routing/${number}`, service.keys.starter);
      assert.equal(reply.status, 200);
      assert.equal(reply.body.checksum.valid, true);
      assert.equal(reply.body.prefix.kind, 'travelers_cheques');
      assert.deepEqual(reply.body.directory, {
        status: 'loaded',
        observed: false,
        observations: [],
      });
      assert.deepEqual(reply.body.payment_rails, { ach: 'not_observed', wire: 'not_observed' });
    },
  );

  it('non-digits and wrong lengths are 400 with the reason, nothing debited; over 32 characters plain 400', async () => {
    const key = service.keys.starter;
    const before = usageOf(service, key);
    for (const [input, reason] of [
      ['01100001X', 'invalid_characters'],
      ['0110 0001', 'invalid_characters'],
      ['01100001', 'invalid_length'],
      ['0110000150', 'invalid_length'],
    ]) {
      const reply = await get(`/us/routing/${encodeURIComponent(input as string)}`, key);
      assert.equal(reply.status, 400, input);
      assert.equal(reply.body.error, 'invalid_argument');
      assert.equal(reply.body.reason, reason, input);
      assert.match(reply.body.message, new RegExp(reason as string));
    }
    const long = await get(`/us/routing/${'1'.repeat(33)}`, key);
    assert.equal(long.status, 400);
    assert.equal(long.body.reason, undefined);
    assert.deepEqual(usageOf(service, key), before);
  });

  it('needs a key', async () => {
    assert.equal((await get('/us/routing/011000015', undefined)).status, 401);
  });
});

describe('POST /us/routing/check-list', () => {
  it('every two-digit prefix: valid exactly for 00-12, 21-32, 61-72 and 80, with its meaning', async () => {
    const numbers = Array.from({ length: 100 }, (_, code) =>
      withCheckDigit(`${String(code).padStart(2, '0')}345678`),
    );
    const reply = await post('/us/routing/check-list', service.keys.pro, {
      routing_numbers: numbers,
    });
    assert.equal(reply.status, 200);
    reply.body.results.forEach(
      (
        row: {
          valid: boolean;
          error: string | null;
          prefix: { kind: string; district: number | null };
        },
        code: number,
      ) => {
        const assigned =
          code <= 12 || (code >= 21 && code <= 32) || (code >= 61 && code <= 72) || code === 80;
        assert.equal(row.valid, assigned, String(code));
        assert.equal(row.error, assigned ? null : 'invalid_prefix', String(code));
        const kind =
          code === 0
            ? 'us_government'
            : code <= 12
              ? 'federal_reserve_district'
              : code >= 21 && code <= 32
                ? 'thrift_institution'
                : code >= 61 && code <= 72
                  ? 'electronic_transaction_identifier'
                  : code === 80
                    ? 'travelers_cheques'
                    : 'unassigned';
        assert.equal(row.prefix.kind, kind, String(code));
        const district =
          code >= 1 && code <= 12
            ? code
            : code >= 21 && code <= 32
              ? code - 20
              : code >= 61 && code <= 72
                ? code - 60
                : null;
        assert.equal(row.prefix.district, district, String(code));
      },
    );
  });

  it(
    'the Treasury numbers Fedwire lists with prefix 15 stay invalid_prefix and are reported observed (README decision)',
    needsShared,
    async () => {
      const reply = await post('/us/routing/check-list', service.keys.pro, {
        routing_numbers: ['154000008', '155000007'],
      });
      assert.equal(reply.status, 200, reply.text);
      for (const row of reply.body.results)
        assert.deepEqual(
          [row.input, row.valid, row.error, row.directory],
          [row.input, false, 'invalid_prefix', 'observed'],
        );
    },
  );

  it(
    'malformed entries are row verdicts; one API credit per DISTINCT number',
    needsShared,
    async () => {
      const key = service.keys.starter;
      const before = creditsUsed(service, key, 'api_calls');
      const list = [
        '011000015',
        '011000015',
        'ABC',
        '',
        '01100001',
        '011000016',
        withCheckDigit('21999999'),
      ];
      const reply = await post('/us/routing/check-list', key, { routing_numbers: list });
      assert.equal(reply.status, 200);
      assert.equal(reply.body.count, list.length);
      assert.equal(reply.body.distinct, 6);
      assert.equal(reply.body.charged_api_credits, 6);
      assert.equal(creditsUsed(service, key, 'api_calls') - before, 6);
      assert.deepEqual(
        reply.body.results.map((r: { error: string | null }) => r.error),
        [
          null,
          null,
          'invalid_characters',
          'invalid_length',
          'invalid_length',
          'invalid_checksum',
          null,
        ],
      );
      assert.deepEqual(
        reply.body.results.map((r: { directory: string }) => r.directory),
        [
          'observed',
          'observed',
          'not_observed',
          'not_observed',
          'not_observed',
          'not_observed',
          'not_observed',
        ],
      );
      assert.equal(reply.body.valid_count, 3);
    },
  );

  it('free keys: 10 numbers; 11 is 402 payment_required; paid keys: 1,000; 1,001 is 400; nothing debited on refusal', async () => {
    const free = service.keys.free;
    const before = usageOf(service, free);
    const eleven = await post('/us/routing/check-list', free, {
      routing_numbers: Array(11).fill('011000015'),
    });
    assert.equal(eleven.status, 402);
    assert.equal(eleven.body.error, 'payment_required');
    assert.equal(eleven.body.max_items, 10);
    assert.deepEqual(usageOf(service, free), before);
    assert.equal(
      (await post('/us/routing/check-list', free, { routing_numbers: Array(10).fill('011000015') }))
        .status,
      200,
    );
    const thousand = Array.from({ length: 1000 }, (_, i) =>
      withCheckDigit(`0${String(i).padStart(7, '0')}`),
    );
    const ok = await post('/us/routing/check-list', service.keys.business, {
      routing_numbers: thousand,
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.count, 1000);
    const tooMany = await post('/us/routing/check-list', service.keys.business, {
      routing_numbers: [...thousand, '011000015'],
    });
    assert.equal(tooMany.status, 400);
  });
});

describe('POST /us/routing/generate', () => {
  it('seeded: deterministic, a smaller quantity is a prefix; unseeded differs; every row valid and synthetic', async () => {
    const key = service.keys.pro;
    const a = await post('/us/routing/generate', key, {
      mode: 'synthetic',
      quantity: 20,
      seed: 'determinism',
    });
    const b = await post('/us/routing/generate', key, {
      mode: 'synthetic',
      quantity: 5,
      seed: 'determinism',
    });
    assert.equal(a.status, 200);
    assert.deepEqual(b.body.rows, a.body.rows.slice(0, 5));
    assert.equal(a.body.success, true);
    assert.equal(a.body.charged_api_credits, 0);
    const c = await post('/us/routing/generate', key, { mode: 'synthetic', quantity: 20 });
    const d = await post('/us/routing/generate', key, { mode: 'synthetic', quantity: 20 });
    assert.notDeepEqual(c.body.rows, d.body.rows);
    for (const row of [...a.body.rows, ...c.body.rows]) {
      assert.equal(checkRoutingNumber(row.routing_number).valid, true, row.routing_number);
      assert.ok(/^(0[1-9]|1[0-2]|2[1-9]|3[0-2])$/.test(row.prefix), row.prefix);
      assert.equal(row.synthetic, true);
      assert.equal(row.bank_assignment, null);
    }
    assert.equal(
      new Set(a.body.rows.map((row: { routing_number: string }) => row.routing_number)).size,
      20,
    );
  });

  it('no credits; free keys up to 10 rows (11: 402 with required_plan), paid up to 750 (751: 400)', async () => {
    const free = service.keys.free;
    const before = usageOf(service, free);
    assert.equal(
      (await post('/us/routing/generate', free, { mode: 'synthetic', quantity: 10 })).body.rows
        .length,
      10,
    );
    const refused = await post('/us/routing/generate', free, { mode: 'synthetic', quantity: 11 });
    assert.equal(refused.status, 402);
    assert.equal(refused.body.error, 'payment_required');
    assert.equal(refused.body.required_plan, 'pass24h');
    assert.deepEqual(usageOf(service, free), before);
    assert.equal(
      (
        await post('/us/routing/generate', service.keys.pass24h, {
          mode: 'synthetic',
          quantity: 750,
        })
      ).body.rows.length,
      750,
    );
    assert.equal(
      (
        await post('/us/routing/generate', service.keys.pass24h, {
          mode: 'synthetic',
          quantity: 751,
        })
      ).status,
      400,
    );
    assert.equal(
      (await post('/us/routing/generate', free, { mode: 'other', quantity: 1 })).status,
      400,
    );
    assert.equal(
      (await post('/us/routing/generate', free, { mode: 'synthetic', seed: 'x'.repeat(101) }))
        .status,
      400,
    );
  });
});

describe('GET /us/routing/targets', () => {
  it(
    'pages with limit and offset; next_offset is null on the last page; no credits',
    needsShared,
    async () => {
      const key = service.keys.free;
      const before = usageOf(service, key);
      const first = await get('/us/routing/targets?q=boston&limit=20', key);
      assert.equal(first.status, 200);
      const total = first.body.total as number;
      assert.ok(total > 20, `total ${total}`);
      assert.equal(first.body.next_offset, 20);
      const lastOffset = total - 3;
      const last = await get(`/us/routing/targets?q=boston&limit=20&offset=${lastOffset}`, key);
      assert.equal(last.body.results.length, 3);
      assert.equal(last.body.next_offset, null);
      const all = await get('/us/routing/targets?q=boston&limit=100', key);
      assert.deepEqual(all.body.results.slice(0, 20), first.body.results);
      assert.deepEqual(usageOf(service, key), before);
      assert.deepEqual(
        first.body.sources.map((s: { source_id: string }) => s.source_id),
        ['fedach', 'fedwire'],
      );
    },
  );

  it('rejects limit outside 1-100 and needs a key', async () => {
    assert.equal((await get('/us/routing/targets?limit=0', service.keys.free)).status, 400);
    assert.equal((await get('/us/routing/targets?limit=101', service.keys.free)).status, 400);
    assert.equal((await get('/us/routing/targets?limit=100', service.keys.free)).status, 200);
    assert.equal((await get('/us/routing/targets', undefined)).status, 401);
  });
});

describe('POST /us/routing/quote', () => {
  it(
    'prices without debiting: api_calls per number, bank_metadata per targeted row, max_credits the sum',
    needsShared,
    async () => {
      const key = service.keys.pro;
      const [target] = (await get('/us/routing/targets?q=011000015', key)).body.results;
      const before = usageOf(service, key);
      const body = {
        routing_numbers: ['011000015', 'bad'],
        generation: {
          target_id: target.target_id,
          source_sha256: target.source_sha256,
          quantity: 150,
        },
      };
      const quote = await post('/us/routing/quote', key, body);
      assert.equal(quote.status, 200);
      assert.deepEqual(quote.body.credits, { api_calls: 2, bank_metadata: 150 });
      assert.equal(quote.body.max_credits, 152);
      assert.equal(quote.body.rows, 152);
      assert.equal(quote.body.source_sha256, target.source_sha256);
      assert.match(quote.body.quote_hash, /^[0-9a-f]{64}$/);
      assert.equal(
        (await post('/us/routing/quote', key, { ...body })).body.quote_hash,
        quote.body.quote_hash,
      );
      assert.deepEqual(usageOf(service, key), before);
    },
  );

  it(
    'targeted generation: Pro up to 150, Business up to 750; below Pro 402 advanced_targeting_required',
    needsShared,
    async () => {
      const [target] = (await get('/us/routing/targets?q=011000015', service.keys.pro)).body
        .results;
      const generation = (quantity: number) => ({
        generation: { target_id: target.target_id, source_sha256: target.source_sha256, quantity },
      });
      const starter = await post('/us/routing/quote', service.keys.starter, generation(1));
      assert.equal(starter.status, 402);
      assert.equal(starter.body.error, 'advanced_targeting_required');
      assert.equal(starter.body.required_plan, 'pro');
      const pro151 = await post('/us/routing/quote', service.keys.pro, generation(151));
      assert.equal(pro151.status, 402);
      assert.equal(pro151.body.required_plan, 'business');
      assert.equal(
        (await post('/us/routing/quote', service.keys.business, generation(750))).status,
        200,
      );
      assert.equal(
        (await post('/us/routing/quote', service.keys.enterprise, generation(750))).status,
        200,
      );
      assert.equal(
        (await post('/us/routing/quote', service.keys.business, generation(751))).status,
        400,
      );
    },
  );

  it('routing_numbers over the plan limit, nothing to price, unknown target', async () => {
    const eleven = await post('/us/routing/quote', service.keys.free, {
      routing_numbers: Array(11).fill('011000015'),
    });
    assert.equal(eleven.status, 402);
    assert.equal((await post('/us/routing/quote', service.keys.pro, {})).status, 400);
    const sha = sharedMissing
      ? 'f'.repeat(64)
      : (await get('/us/routing/targets?limit=1', service.keys.pro)).body.results[0].source_sha256;
    const unknown = await post('/us/routing/quote', service.keys.pro, {
      generation: { target_id: 'rt_0000000000000000', source_sha256: sha, quantity: 1 },
    });
    assert.equal(unknown.status, sharedMissing ? 409 : 404);
  });
});

describe('POST /us/routing/profile', () => {
  it('preview is free and masked; the full profile is the same person unmasked', async () => {
    const key = service.keys.starter;
    const before = usageOf(service, key);
    const preview = await post('/us/routing/profile', key, {
      mode: 'synthetic',
      seed: 'person-1',
      preview_only: true,
    });
    assert.equal(preview.status, 200);
    assert.deepEqual(usageOf(service, key), before);
    assert.equal(preview.body.preview, true);
    assert.match(preview.body.person.given_name, /^.\*\*\*$/);
    assert.match(preview.body.bank_account.account_number, /^\*+\d{4}$/);
    assert.match(preview.body.person.ssn_like.masked, /^\*\*\*-\*\*-\d{4}$/);
    const full = await post('/us/routing/profile', key, {
      mode: 'synthetic',
      seed: 'person-1',
      confirm_credit: true,
    });
    assert.equal(full.status, 200);
    assert.equal(full.body.person.given_name.charAt(0), preview.body.person.given_name.charAt(0));
    assert.ok(
      full.body.bank_account.account_number.endsWith(
        preview.body.bank_account.account_number.slice(-4),
      ),
    );
    assert.equal(
      full.body.person.ssn_like.masked,
      preview.body.person.ssn_like.masked,
      'the SSN-like id is never shown in full',
    );
    assert.equal(full.body.synthetic, true);
    assert.equal(full.body.address.synthetic, true);
    assert.match(full.body.person.email, /@example\.(com|net|org)$/);
    assert.equal(checkRoutingNumber(full.body.bank_account.routing_number).valid, true);
  });

  it('a full profile needs confirm_credit, costs one profile credit and replays for the same seed without a debit', async () => {
    const key = service.keys.pro;
    const refused = await post('/us/routing/profile', key, { mode: 'synthetic', seed: 'person-2' });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /confirm_credit/);
    const before = creditsUsed(service, key, 'profiles');
    const first = await post('/us/routing/profile', key, {
      mode: 'synthetic',
      seed: 'person-2',
      confirm_credit: true,
    });
    assert.equal(creditsUsed(service, key, 'profiles') - before, 1);
    assert.equal(first.body.replayed, false);
    const again = await post('/us/routing/profile', key, {
      mode: 'synthetic',
      seed: 'person-2',
      confirm_credit: true,
    });
    assertReplayOf(again.body, first.body);
    assert.equal(first.body.charged_profile_credits, 1);
    assert.equal(
      again.body.charged_profile_credits,
      0,
      'a replayed profile does not claim to charge again',
    );
    assert.equal(creditsUsed(service, key, 'profiles') - before, 1, 'the replay debits nothing');
    await post('/us/routing/profile', key, {
      mode: 'synthetic',
      seed: 'person-3',
      confirm_credit: true,
    });
    assert.equal(
      creditsUsed(service, key, 'profiles') - before,
      2,
      'another seed is another profile',
    );
  });

  it(
    "targeted: needs Pro, uses the target's real routing number and place",
    needsShared,
    async () => {
      const [target] = (await get('/us/routing/targets?q=011000028', service.keys.pro)).body
        .results;
      const body = {
        mode: 'targeted',
        seed: 'person-4',
        confirm_credit: true,
        generation: { target_id: target.target_id, source_sha256: target.source_sha256 },
      };
      const starter = await post('/us/routing/profile', service.keys.starter, body);
      assert.equal(starter.status, 402);
      assert.equal(starter.body.error, 'advanced_targeting_required');
      const pro = await post('/us/routing/profile', service.keys.pro, body);
      assert.equal(pro.status, 200);
      assert.equal(pro.body.bank_account.routing_number, target.routing_number);
      assert.equal(pro.body.bank_account.routing_source, 'directory_target');
      assert.deepEqual(pro.body.bank_account.target, target);
      assert.deepEqual(
        [pro.body.address.city, pro.body.address.state],
        [target.city, target.state],
      );
      assert.equal(
        (
          await post('/us/routing/profile', service.keys.pro, {
            mode: 'targeted',
            seed: 'x',
            preview_only: true,
          })
        ).status,
        400,
      );
    },
  );
});
