// Goal: /profile and /ai-profile over REST and gRPC: both shapes by the documented rule, metering of one API and
// one profile credit, 403 generation_limit_reached once profile credits are spent, 400 with nothing debited for
// bad input, an explicit no-match for an unknown bank context, seeded determinism. Real service on loopback.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { grpcClient, keyMetadata, unary, type IbanQaClient } from '../helpers/grpc-client.js';
import { call, creditsUsed, startTestService, type TestService } from '../helpers/service.js';

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

describe('POST /profile', () => {
  it('answers the personal-data shape without bank context, debiting one API and one profile credit', async () => {
    const key = service.keys.starter;
    const [api, profiles] = [
      creditsUsed(service, key, 'api_calls'),
      creditsUsed(service, key, 'profiles'),
    ];
    const reply = await call(service.base, '/profile', {
      key,
      body: { country: 'Germany', gender: 'female', age_min: 30, age_max: 40 },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.success, true);
    const p = reply.body.profile;
    assert.equal(p.gender, 'female');
    assert.ok(p.age >= 30 && p.age <= 40);
    assert.equal(p.address.country, 'Germany');
    assert.match(p.email, /@example\.(com|net|org)$/);
    assert.match(p.tax_id, /^\d{11}$/);
    assert.match(p.credit_card.number, /\*{4}/);
    assert.equal(p.provider, 'builtin');
    assert.match(p.model, /faker-js\/faker 10\.6\.0/);
    assert.equal(p.profile, undefined, 'no nested bank-context profile');
    assert.equal(creditsUsed(service, key, 'api_calls') - api, 1);
    assert.equal(creditsUsed(service, key, 'profiles') - profiles, 1);
    assert.equal(reply.body.generations_left, 200 - creditsUsed(service, key, 'profiles'));
  });

  it('answers the bank-context shape for swift_code, with the registry bank', async () => {
    const reply = await call(service.base, '/profile', {
      key: service.keys.pro,
      body: { country: 'DE', swift_code: 'COBADEFFXXX', seed: 'bank-ctx' },
    });
    assert.equal(reply.status, 200, reply.text);
    const p = reply.body.profile;
    assert.equal(p.iban.slice(0, 2), 'DE');
    assert.equal(p.profile.bank_account.swift_bic, 'COBADEFFXXX');
    assert.equal(p.profile.bank_account.bank_website, null);
    assert.equal(p.profile.bank_account.bank_match, 'matched');
    assert.ok(p.quality_score >= 85, JSON.stringify(p.quality_reasons));
    assert.equal(p.quality_tier, 'good');
    assert.equal(p.model_tier, 'builtin');
  });

  it('takes country and bank from a sent IBAN; an IBAN whose bank the registry does not know is no_match', async () => {
    const known = await call(service.base, '/profile', {
      key: service.keys.pro,
      body: { iban: 'DE89 3704 0044 0532 0130 00' },
    });
    assert.equal(known.status, 200, known.text);
    assert.equal(known.body.profile.iban, 'DE89370400440532013000');
    assert.equal(known.body.profile.profile.country, 'Germany');
    assert.equal(known.body.profile.profile.bank_account.bank_match, 'matched');
    const unknown = await call(service.base, '/profile', {
      key: service.keys.pro,
      body: { iban: 'GB82WEST12345698765432' },
    });
    assert.equal(unknown.status, 200, unknown.text);
    assert.equal(unknown.body.profile.profile.bank_account.bank_match, 'no_match');
    assert.equal(unknown.body.profile.profile.bank_account.swift_bic, null, 'nothing substituted');
    assert.ok(
      unknown.body.profile.quality_reasons.some((r: { code: string }) => r.code === 'bank_unknown'),
    );
  });

  it('a bank context that matches no registry bank is 404 target_no_match and debits nothing', async () => {
    const key = service.keys.pro;
    const before = creditsUsed(service, key, 'profiles');
    const reply = await call(service.base, '/profile', {
      key,
      body: { country: 'DE', bank_name: 'No Such Bank Anywhere' },
    });
    assert.equal(reply.status, 404);
    assert.equal(reply.body.error, 'target_no_match');
    assert.equal(creditsUsed(service, key, 'profiles'), before);
  });

  it('free keys see the BIC and bank name LOCKED', async () => {
    const reply = await call(service.base, '/profile', {
      key: service.keys.free,
      body: { iban: 'DE89370400440532013000' },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.profile.profile.bank_account.swift_bic, 'LOCKED');
    assert.equal(reply.body.profile.premium_fields_locked, true);
  });

  it('seeded requests repeat, unseeded ones do not', async () => {
    const body = { country: 'Italy', seed: 'golden-it' };
    const a = await call(service.base, '/profile', { key: service.keys.business, body });
    const b = await call(service.base, '/profile', { key: service.keys.business, body });
    assert.deepEqual({ ...a.body, generations_left: 0 }, { ...b.body, generations_left: 0 });
    const c = await call(service.base, '/profile', {
      key: service.keys.business,
      body: { country: 'Italy' },
    });
    const d = await call(service.base, '/profile', {
      key: service.keys.business,
      body: { country: 'Italy' },
    });
    assert.notDeepEqual(c.body.profile, d.body.profile);
  });

  const badInputs: [string, unknown][] = [
    ['age_min above age_max', { age_min: 50, age_max: 40 }],
    ['age below 18', { age_min: 10 }],
    ['age above 120', { age_max: 121 }],
    ['unknown gender', { gender: 'robot' }],
    ['unknown country', { country: 'Atlantis' }],
    ['malformed IBAN', { iban: 'DE00 1234' }],
    ['IBAN of another country', { country: 'France', iban: 'DE89370400440532013000' }],
    ['swift_code that is not a BIC', { swift_code: 'NOT-A-BIC' }],
    ['additional_info too large', { additional_info: { note: 'x'.repeat(3_000) } }],
    ['additional_info too deep', { additional_info: { a: { b: { c: { d: { e: 1 } } } } } }],
    ['unknown field', { colour: 'blue' }],
    ['unknown phone_range', { country: 'GB', phone_range: 'drama' }],
    [
      'fictional phone for a country without a reserved range',
      { country: 'DE', phone_range: 'fictional' },
    ],
    ['fictional phone without a country', { phone_range: 'fictional' }],
  ];

  it('phones are valid for the country by default; Ofcom drama numbers only on request, labelled', async () => {
    const key = service.keys.pro;
    const valid = await call(service.base, '/profile', {
      key,
      body: { country: 'GB', seed: 'phone-range' },
    });
    assert.equal(valid.status, 200, valid.text);
    assert.equal(valid.body.profile.phone_range, 'synthetic_format_valid');
    assert.doesNotMatch(valid.body.profile.phone, /^\+44 7700 900/);
    const fiction = await call(service.base, '/profile', {
      key,
      body: { country: 'GB', seed: 'phone-range', phone_range: 'fictional' },
    });
    assert.equal(fiction.status, 200, fiction.text);
    assert.equal(fiction.body.profile.phone_range, 'fictional_reserved');
    // Ofcom's drama ranges, written out here.
    assert.match(
      fiction.body.profile.phone.replace(/\s/g, ''),
      /^\+44(7700900|2079460|(113|117|121|131|141|151|161)4960|1914980|1632960)\d{3}$/,
    );
    assert.ok(
      fiction.body.profile.quality_reasons.some(
        (reason: { code: string }) => reason.code === 'phone_fictional_range',
      ),
    );
  });
  for (const [name, body] of badInputs) {
    it(`400 with an Error object and nothing debited: ${name}`, async () => {
      const key = service.keys.pro;
      const before = [
        creditsUsed(service, key, 'api_calls'),
        creditsUsed(service, key, 'profiles'),
      ];
      const reply = await call(service.base, '/profile', { key, body });
      assert.equal(reply.status, 400, reply.text);
      assert.equal(typeof reply.body.error, 'string');
      assert.equal(typeof reply.body.request_id, 'string');
      assert.deepEqual(
        [creditsUsed(service, key, 'api_calls'), creditsUsed(service, key, 'profiles')],
        before,
      );
    });
  }

  it('spent profile credits are 403 generation_limit_reached (not 429) and debit nothing', async () => {
    const key = service.keys.pass24h; // 10 profiles
    const left = 10 - creditsUsed(service, key, 'profiles');
    for (let i = 0; i < left; i++)
      assert.equal((await call(service.base, '/profile', { key, body: {} })).status, 200);
    const api = creditsUsed(service, key, 'api_calls');
    const refused = await call(service.base, '/profile', { key, body: {} });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.error, 'generation_limit_reached');
    assert.equal(creditsUsed(service, key, 'api_calls'), api);
    const ai = await call(service.base, '/ai-profile', { key, body: {} });
    assert.equal(ai.status, 403);
  });

  it('without a key: 401', async () => {
    assert.equal((await call(service.base, '/profile', { body: {} })).status, 401);
  });
});

describe('POST /ai-profile without a configured provider', () => {
  it('answers from the built-in engine with the same envelope', async () => {
    const reply = await call(service.base, '/ai-profile', {
      key: service.keys.pro,
      body: { country: 'PL', seed: 's' },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.profile.provider, 'builtin');
    assert.match(reply.body.profile.tax_id, /^\d{11}$/);
  });
});

describe('gRPC Profile and AiProfile', () => {
  it('same profile as REST for the same seeded request, metered the same', async () => {
    const key = service.keys.enterprise;
    const rest = await call(service.base, '/profile', {
      key,
      body: { country: 'ES', seed: 'parity', additional_info: { team: 'qa' } },
    });
    const before = creditsUsed(service, key, 'profiles');
    const reply = await unary(
      grpc,
      'Profile',
      { country: 'ES', seed: 'parity', additional_info_json: '{"team":"qa"}' },
      keyMetadata(key),
    );
    assert.equal(reply.error, null, reply.error?.message);
    assert.equal(creditsUsed(service, key, 'profiles') - before, 1);
    const g = reply.response.profile;
    const r = rest.body.profile;
    for (const field of [
      'first_name',
      'last_name',
      'date_of_birth',
      'email',
      'phone',
      'tax_id',
      'iban',
    ])
      assert.equal(g[field], r[field], field);
    assert.deepEqual(g.address, r.address);
    assert.equal(reply.response.generations_left, 25_000 - creditsUsed(service, key, 'profiles'));
  });

  it('phone_range travels in ProfileRequest: fictional GB, and 400 -> INVALID_ARGUMENT for DE', async () => {
    const fiction = await unary(
      grpc,
      'Profile',
      { country: 'GB', seed: 'grpc-fiction', phone_range: 'fictional' },
      keyMetadata(service.keys.pro),
    );
    assert.equal(fiction.error, null, fiction.error?.message);
    assert.equal(fiction.response.profile.phone_range, 'fictional_reserved');
    const refused = await unary(
      grpc,
      'Profile',
      { country: 'DE', phone_range: 'fictional' },
      keyMetadata(service.keys.pro),
    );
    assert.equal(refused.error?.code, 3); // INVALID_ARGUMENT
  });

  it('bank-context shape and errors map to gRPC codes', async () => {
    const ok = await unary(
      grpc,
      'AiProfile',
      { swift_code: 'COBADEFFXXX' },
      keyMetadata(service.keys.pro),
    );
    assert.equal(ok.error, null, ok.error?.message);
    assert.equal(ok.response.profile.profile.bank_account.swift_bic, 'COBADEFFXXX');
    const bad = await unary(
      grpc,
      'Profile',
      { age_min: 70, age_max: 20 },
      keyMetadata(service.keys.pro),
    );
    assert.equal(bad.error?.code, 3); // INVALID_ARGUMENT
    const badJson = await unary(
      grpc,
      'Profile',
      { additional_info_json: '{not json' },
      keyMetadata(service.keys.pro),
    );
    assert.equal(badJson.error?.code, 3);
    const spent = await unary(grpc, 'Profile', {}, keyMetadata(service.keys.pass24h));
    assert.equal(spent.error?.code, 7); // PERMISSION_DENIED
    assert.equal(spent.error?.metadata.get('error')[0], 'generation_limit_reached');
  });
});

describe('POST /us/routing/profile on the same engine', () => {
  it('draws the person from the US locale and answers 403 once profile credits are spent', async () => {
    const key = service.keys.free; // 5 profiles, shared with the tests above
    const full = await call(service.base, '/us/routing/profile', {
      key,
      body: { mode: 'synthetic', seed: 'us-engine-0', confirm_credit: true },
    });
    assert.equal(full.status, 200, full.text);
    assert.match(full.body.person.email, /^[a-z0-9._]+@example\.(com|net|org)$/);
    assert.match(full.body.address.postal_code, /^\d{5}$/);
    assert.match(full.body.address.state, /^[A-Z]{2}$/);
    const replay = await call(service.base, '/us/routing/profile', {
      key,
      body: { mode: 'synthetic', seed: 'us-engine-0', confirm_credit: true },
    });
    assert.equal(replay.body.replayed, true);
    assert.deepEqual(replay.body.person, full.body.person);
    let status = 200;
    for (let i = 1; i <= 6 && status === 200; i++) {
      status = (
        await call(service.base, '/us/routing/profile', {
          key,
          body: { mode: 'synthetic', seed: `us-engine-${i}`, confirm_credit: true },
        })
      ).status;
    }
    assert.equal(status, 403);
    assert.equal(creditsUsed(service, key, 'profiles'), 5);
  });
});
