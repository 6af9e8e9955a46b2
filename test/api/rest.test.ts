// Goal: every REST endpoint of the spine answers per the spec against the real uWS server, and every kind of
// bad input gets the right status and an Error object. Method: one real service on ephemeral ports, fetch as client.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, startTestService, type TestService } from '../helpers/service.js';

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(async () => {
  await service.dispose();
});

function assertErrorObject(
  reply: { status: number; body: any; headers: Headers },
  status: number,
  error: string,
): void {
  assert.equal(reply.status, status, JSON.stringify(reply.body));
  assert.equal(reply.body.error, error);
  assert.equal(typeof reply.body.message, 'string');
  assert.equal(reply.body.request_id, reply.headers.get('x-request-id'));
}

describe('REST basics', () => {
  test('health, readiness, OpenAPI 3.1 with the contract version', async () => {
    assert.equal((await call(service.base.replace('/api/v1', ''), '/healthz')).status, 200);
    assert.equal((await call(service.base.replace('/api/v1', ''), '/readyz')).body.status, 'ready');
    const openapi = await call(service.base, '/openapi.json');
    assert.equal(openapi.body.openapi, '3.1.0');
    assert.equal(openapi.body.info.version, '2026-11-25');
    for (const path of [
      '/api/v1/generate',
      '/api/v1/validate',
      '/api/v1/test-cases',
      '/api/v1/bulk-dataset',
      '/api/v1/iban/calculate',
    ]) {
      assert.ok(openapi.body.paths[path]?.post, `OpenAPI documents ${path}`);
    }
  });

  test('X-Request-ID: a printable ASCII value is echoed, anything else replaced by a UUIDv7', async () => {
    const echoed = await call(service.base, '/generate', {
      key: service.keys.pro,
      body: { country: 'DE' },
      headers: { 'x-request-id': 'harness-run-42' },
    });
    assert.equal(echoed.headers.get('x-request-id'), 'harness-run-42');
    const tooLong = await call(service.base, '/generate', {
      key: service.keys.pro,
      body: { country: 'DE' },
      headers: { 'x-request-id': 'x'.repeat(129) },
    });
    assert.match(
      tooLong.headers.get('x-request-id') ?? '',
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  test('unknown route 404, wrong method 405 with Allow, oversize 413, malformed JSON 400', async () => {
    assertErrorObject(await call(service.base, '/nope'), 404, 'not_found');
    const wrongMethod = await call(service.base, '/generate', { method: 'GET' });
    assertErrorObject(wrongMethod, 405, 'method_not_allowed');
    assert.equal(wrongMethod.headers.get('allow'), 'POST');
    assertErrorObject(
      await call(service.base, '/validate', { raw: `{"ibans":["${'A'.repeat(300_000)}"]}` }),
      413,
      'payload_too_large',
    );
    assertErrorObject(
      await call(service.base, '/generate', { key: service.keys.pro, raw: '{"country":' }),
      400,
      'invalid_argument',
    );
    assertErrorObject(
      await call(service.base, '/generate', { key: service.keys.pro, raw: '[1,2]' }),
      400,
      'invalid_argument',
    );
  });

  test('missing and wrong keys are 401 Invalid API key', async () => {
    assertErrorObject(
      await call(service.base, '/generate', { body: { country: 'DE' } }),
      401,
      'Invalid API key',
    );
    assertErrorObject(
      await call(service.base, '/generate', {
        key: 'iq_nottherightkeyatallnottherightke',
        body: { country: 'DE' },
      }),
      401,
      'Invalid API key',
    );
    assertErrorObject(
      await call(service.base, '/generate', { key: 'schlüssel', body: { country: 'DE' } }),
      401,
      'Invalid API key',
    );
  });
});

describe('POST /generate', () => {
  test('rows are checksum-valid, seeded rows repeat, unseeded rows differ', async () => {
    const body = { country: 'Germany', quantity: 5, seed: 'repeat-me' };
    const first = await call(service.base, '/generate', { key: service.keys.pro, body });
    const second = await call(service.base, '/generate', {
      key: service.keys.pro,
      body: { ...body, country: 'de' },
    });
    assert.equal(first.status, 200);
    assert.equal(first.body.length, 5);
    assert.deepEqual(
      first.body,
      second.body,
      'the same seed and parameters give the same rows (country by name or code)',
    );
    const validation = await call(service.base, '/validate', {
      key: service.keys.pro,
      body: { ibans: first.body.map((row: any) => row.iban) },
    });
    assert.ok(validation.body.every((row: any) => row.valid));
    const unseeded = await call(service.base, '/generate', {
      key: service.keys.pro,
      body: { country: 'DE', quantity: 5 },
    });
    assert.notDeepEqual(
      unseeded.body.map((r: any) => r.iban),
      first.body.map((r: any) => r.iban),
    );
    assert.equal(first.body[0].seed, 'repeat-me');
  });

  test('a smaller quantity is a prefix of a larger one', async () => {
    const small = await call(service.base, '/generate', {
      key: service.keys.pro,
      body: { country: 'FR', quantity: 3, seed: 'prefix' },
    });
    const large = await call(service.base, '/generate', {
      key: service.keys.pro,
      body: { country: 'FR', quantity: 10, seed: 'prefix' },
    });
    assert.deepEqual(large.body.slice(0, 3), small.body);
  });

  test('free keys get LOCKED placeholders and locked_fields', async () => {
    const reply = await call(service.base, '/generate', {
      key: service.keys.free,
      body: { country: 'DE', include_bank_details: true },
    });
    assert.equal(reply.status, 200);
    const [row] = reply.body;
    assert.equal(row.swift_code, 'LOCKED');
    assert.equal(row.bank_name, 'LOCKED');
    assert.equal(row.premium_fields_locked, true);
    assert.deepEqual(row.locked_fields, ['swift_code', 'bank_name', 'bank_intelligence']);
    assert.equal(row.premium_unlock_url, '/pricing');
    assert.equal(row.bank_intelligence, undefined);
  });

  test('paid keys with bank details get real registry data', async () => {
    const reply = await call(service.base, '/generate', {
      key: service.keys.pro,
      body: { country: 'DE', quantity: 3, include_bank_details: true, seed: 'banks' },
    });
    for (const row of reply.body) {
      assert.equal(row.bank_match, 'matched');
      assert.match(row.swift_code, /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/);
      assert.equal(row.bank_intelligence.domestic_registry.bank_code, row.bank_code);
      assert.equal(row.iban.slice(4, 12), row.bank_code);
    }
  });

  test('bad input: country, quantity, types, unknown fields, seed length', async () => {
    assertErrorObject(
      await call(service.base, '/generate', {
        key: service.keys.pro,
        body: { country: 'Atlantis' },
      }),
      400,
      'Invalid country',
    );
    assertErrorObject(
      await call(service.base, '/generate', { key: service.keys.pro, body: { country: 'US' } }),
      400,
      'Invalid country',
    );
    for (const quantity of [0, 101, 1.5, '5']) {
      assertErrorObject(
        await call(service.base, '/generate', {
          key: service.keys.pro,
          body: { country: 'DE', quantity },
        }),
        400,
        'invalid_argument',
      );
    }
    assertErrorObject(
      await call(service.base, '/generate', {
        key: service.keys.pro,
        body: { country: 'DE', colour: 'red' },
      }),
      400,
      'invalid_argument',
    );
    assertErrorObject(
      await call(service.base, '/generate', {
        key: service.keys.pro,
        body: { country: 'DE', seed: 's'.repeat(101) },
      }),
      400,
      'invalid_argument',
    );
    assertErrorObject(
      await call(service.base, '/generate', {
        key: service.keys.pro,
        body: { country: 'x'.repeat(10_000) },
      }),
      400,
      'invalid_argument',
    );
  });

  test('targeting plan gates answer 402 advanced_targeting_required', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      [service.keys.free, { targeting: { city: 'Berlin' } }, 'pass24h'],
      [service.keys.starter, { targeting: { bank: 'Sparkasse' } }, 'pro'],
      [service.keys.pro, { bic: 'COBADEFFXXX' }, 'business'],
    ];
    for (const [key, extra, required] of cases) {
      const reply = await call(service.base, '/generate', {
        key,
        body: { country: 'DE', ...extra },
      });
      assertErrorObject(reply, 402, 'advanced_targeting_required');
      assert.equal(reply.body.required_plan, required);
      assert.equal(reply.body.pricing_url, '/pricing');
    }
  });

  test('a target that matches nothing is an explicit no-match, never a substitute', async () => {
    const reply = await call(service.base, '/generate', {
      key: service.keys.business,
      body: { country: 'DE', targeting: { bic: 'ZZZZDEZZXXX' } },
    });
    assertErrorObject(reply, 404, 'target_no_match');
    assert.equal(reply.body.match_status, 'no_match');
  });
});

describe('POST /validate', () => {
  test('reasons in precedence order, input echoed, unknown bank is not invalid', async () => {
    const ibans = [
      'DE89 3704 0044 0532 0130 00',
      'de89370400440532013001',
      'XX89370400440532013000',
      'DE8937040044053201300',
      'DE89\u0007370400440532013000',
      'DEÄ9370400440532013000',
    ];
    const reply = await call(service.base, '/validate', { key: service.keys.pro, body: { ibans } });
    assert.equal(reply.status, 200);
    assert.deepEqual(
      reply.body.map((row: any) => row.iban),
      ibans,
    );
    assert.deepEqual(
      reply.body.map((row: any) => row.error ?? null),
      [
        null,
        'invalid_checksum',
        'unsupported_country',
        'invalid_length',
        'invalid_characters',
        'invalid_characters',
      ],
    );
    assert.equal(reply.body[1].swift_code, 'N/A');
    const unknownBank = await call(service.base, '/iban/calculate', {
      key: service.keys.pro,
      body: { country: 'DE', bank_code: '99999999', account_number: '1234567890' },
    });
    const row = (
      await call(service.base, '/validate', {
        key: service.keys.pro,
        body: { ibans: [unknownBank.body.iban] },
      })
    ).body[0];
    assert.equal(row.valid, true);
    assert.equal(row.bank_match, 'no_match');
    assert.equal(row.swift_code, null);
  });

  test('list bounds: empty, 101 items, 10,000-character strings are 400', async () => {
    assertErrorObject(
      await call(service.base, '/validate', { key: service.keys.pro, body: { ibans: [] } }),
      400,
      'invalid_argument',
    );
    assertErrorObject(
      await call(service.base, '/validate', {
        key: service.keys.pro,
        body: { ibans: Array(101).fill('DE89370400440532013000') },
      }),
      400,
      'invalid_argument',
    );
    assertErrorObject(
      await call(service.base, '/validate', {
        key: service.keys.pro,
        raw: JSON.stringify({ ibans: ['D'.repeat(10_000)] }),
      }),
      400,
      'invalid_argument',
    );
    assertErrorObject(
      await call(service.base, '/validate', { key: service.keys.pro, body: { ibans: [42] } }),
      400,
      'invalid_argument',
    );
  });

  test('keyless: at most 10 per request, locked bank fields, X-RateLimit-Remaining, 100 per day per IP', async () => {
    assertErrorObject(
      await call(service.base, '/validate', {
        body: { ibans: Array(11).fill('DE89370400440532013000') },
      }),
      400,
      'invalid_argument',
    );
    const first = await call(service.base, '/validate', {
      body: { ibans: Array(10).fill('DE89370400440532013000') },
    });
    assert.equal(first.status, 200);
    assert.equal(first.body[0].swift_code, 'LOCKED');
    const remaining = Number(first.headers.get('x-ratelimit-remaining'));
    assert.ok(remaining <= 90);
    let last = first;
    for (let spent = 100 - remaining; spent < 100; spent += 10) {
      last = await call(service.base, '/validate', {
        body: { ibans: Array(10).fill('DE89370400440532013000') },
      });
      assert.equal(last.status, 200);
    }
    assert.equal(last.headers.get('x-ratelimit-remaining'), '0');
    assertErrorObject(
      await call(service.base, '/validate', { body: { ibans: ['DE89370400440532013000'] } }),
      429,
      'rate_limited',
    );
  });
});

describe('POST /test-cases and /bulk-dataset', () => {
  test('test cases carry the reason /validate really gives; free keys get a preview', async () => {
    const reply = await call(service.base, '/test-cases', {
      key: service.keys.pro,
      body: { country: 'ES', quantity: 12, seed: 'tc' },
    });
    assert.equal(reply.body.count, 12);
    const verdicts = await call(service.base, '/validate', {
      key: service.keys.pro,
      body: { ibans: reply.body.cases.map((c: any) => c.input) },
    });
    reply.body.cases.forEach((testCase: any, index: number) => {
      assert.equal(verdicts.body[index].valid, testCase.expected_valid, testCase.description);
      assert.equal(
        verdicts.body[index].error ?? null,
        testCase.expected_error,
        testCase.description,
      );
    });
    const preview = await call(service.base, '/test-cases', {
      key: service.keys.free,
      body: { country: 'ES' },
    });
    assert.equal(preview.body.count, 5);
    assert.equal(preview.body.preview, true);
    const csv = await call(service.base, '/test-cases', {
      key: service.keys.pro,
      body: { country: 'ES', quantity: 3, output: 'csv' },
    });
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    assert.equal(csv.text.trim().split('\n').length, 4);
    assertErrorObject(
      await call(service.base, '/test-cases', {
        key: service.keys.pro,
        body: { country: 'ES', quantity: 26 },
      }),
      400,
      'invalid_argument',
    );
    assertErrorObject(
      await call(service.base, '/test-cases', {
        key: service.keys.pro,
        body: { country: 'ES', output: 'xml' },
      }),
      400,
      'invalid_argument',
    );
  });

  test('bulk dataset: paid only, plan caps, JSON and CSV agree', async () => {
    assertErrorObject(
      await call(service.base, '/bulk-dataset', {
        key: service.keys.free,
        body: { country: 'NL' },
      }),
      402,
      'bulk_dataset_requires_paid_access',
    );
    const capped = await call(service.base, '/bulk-dataset', {
      key: service.keys.pass24h,
      body: { country: 'NL', quantity: 41 },
    });
    assertErrorObject(capped, 402, 'payment_required');
    assert.equal(capped.body.required_plan, 'starter');
    const withProfiles = await call(service.base, '/bulk-dataset', {
      key: service.keys.pro,
      body: { country: 'NL', quantity: 2, include_profiles: true },
    });
    assert.equal(withProfiles.status, 200);
    assert.equal(withProfiles.body.rows[0].profile.iban, withProfiles.body.rows[0].iban);
    const json = await call(service.base, '/bulk-dataset', {
      key: service.keys.pro,
      body: { country: 'NL', quantity: 25, seed: 'bulk' },
    });
    assert.equal(json.body.success, true);
    assert.equal(json.body.limit, 10_000);
    assert.equal(json.body.rows.length, 25);
    const csv = await call(service.base, '/bulk-dataset', {
      key: service.keys.pro,
      body: { country: 'NL', quantity: 25, seed: 'bulk', output: 'csv' },
    });
    const lines = csv.text.trim().split('\n');
    assert.equal(lines.length, 26);
    assert.deepEqual(
      lines.slice(1).map((line) => line.split(',')[1]),
      json.body.rows.map((row: any) => row.iban),
    );
  });
});

describe('aborted requests', () => {
  test('a client that hangs up mid-body does not disturb the server', async () => {
    const { connect } = await import('node:net');
    const { port } = new URL(service.base);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /api/v1/validate HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"ibans":[`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
    });
    const after = await call(service.base, '/validate', {
      key: service.keys.pro,
      body: { ibans: ['DE89370400440532013000'] },
    });
    assert.equal(after.status, 200);
    assert.equal(after.body[0].valid, true);
  });
});
