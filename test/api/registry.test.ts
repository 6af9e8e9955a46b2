// Goal: every bank-intelligence, watchlist and time-machine endpoint answers per the spec over REST with its plan
// gate, bounds and metering; bank metadata on IBAN rows comes from the imported registry; everything survives a
// restart. Method: one real service on the embedded default registry, plus SYNTHETIC fixture files imported into
// its registry in-process (real publisher files are exercised in src/registry/store/import-file.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeRecord } from '../../src/registry/importers/common.js';
import { parseGleifRr } from '../../src/registry/importers/gleif-rr.js';
import { exportColumns } from '../../src/ops/registry/export.js';
import { readFixture } from '../fixtures/registry/paths.js';
import { importIntoRegistry } from '../helpers/registry-import.js';
import { call, creditsUsed, startTestService, type TestService } from '../helpers/service.js';

let service: TestService;
before(async () => {
  service = await startTestService();
  await importIntoRegistry(service.dataDir, [
    {
      file: {
        sourceId: 'bundesbank-blz',
        bytes: readFixture('bundesbank-synthetic-latin1.txt'),
        fileName: 'bundesbank-synthetic.txt',
        snapshotDate: '2026-01-05',
      },
    },
    {
      file: {
        sourceId: 'oenb-sepa',
        bytes: readFixture('oenb-synthetic.csv'),
        fileName: 'oenb-synthetic.csv',
      },
    },
    { snapshot: syntheticGleifEntities(), options: { fileName: 'synthetic-lei.json' } },
    {
      snapshot: parseGleifRr(readFixture('gleif-rr-synthetic.json'), {
        snapshotDate: '2024-02-01',
      }),
      options: { fileName: 'gleif-rr-synthetic.json' },
    },
  ]);
});
after(async () => {
  await service.dispose();
});

/** SYNTHETIC GLEIF entities for the synthetic LEIs of the fixtures (no real institution). */
function syntheticGleifEntities() {
  const entity = (lei: string, name: string) =>
    makeRecord({
      source_id: 'gleif-lei',
      record_key: lei,
      record_type: 'legal_entity',
      country_code: 'AT',
      legal_name: name,
      lei,
      entity_status: 'ACTIVE',
      registration_status: 'ISSUED',
      fields: {
        LEI: lei,
        'Entity.LegalName': name,
        'Registration.NextRenewalDate': '2099-01-01T00:00:00Z',
      },
    });
  const records = [
    entity('SYNTHPARENT000000198', 'Synthetic Parent Holding (synthetic)'),
    entity('SYNTHCHILD0000000111', 'Synthetic Child Bank (synthetic)'),
  ];
  const source = {
    source_id: 'gleif-lei',
    publisher: 'Synthetic test data',
    title: 'synthetic LEI records',
    license: 'synthetic',
    version: null,
  };
  return {
    source_id: 'gleif-lei',
    source,
    snapshot_date: '2024-02-01',
    records,
    row_count: records.length,
    ignored_fields: [],
  };
}

function assertError(reply: { status: number; body: any }, status: number, error: string): void {
  assert.equal(reply.status, status, JSON.stringify(reply.body));
  assert.equal(reply.body.error, error);
}

const post = (path: string, key: string, body: unknown) => call(service.base, path, { key, body });
const get = (path: string, key: string) => call(service.base, path, { key });

describe('POST /bank-intelligence/lookup', () => {
  test('matches by BIC, LEI and national code with an explicit no_match; one API credit per identifier', async () => {
    const key = service.keys.starter;
    const before = creditsUsed(service, key, 'api_calls');
    const reply = await post('/bank-intelligence/lookup', key, {
      identifiers: [
        { value: 'SYNTDEK1XXX', type: 'bic' },
        { value: 'SYNTHPARENT000000198' },
        { value: 'AT:99901' },
        { value: 'ZZZZDEZZXXX' },
      ],
    });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(
      reply.body.results.map((r: any) => [r.resolved_type, r.match_status]),
      [
        ['bic', 'matched'],
        ['lei', 'matched'],
        ['bank_code', 'matched'],
        ['bic', 'no_match'],
      ],
    );
    assert.equal(reply.body.results[0].matches[0].address.city, 'Köln');
    assert.equal(reply.body.results[3].matches.length, 0);
    assert.equal(reply.body.charged_api_credits, 4);
    assert.equal(creditsUsed(service, key, 'api_calls') - before, 4);
    assert.equal(
      reply.body.results[0].matches[0].source,
      undefined,
      'source attribution is for Business keys',
    );
    const business = await post('/bank-intelligence/lookup', service.keys.business, {
      value: 'SYNTDEK1XXX',
    });
    assert.equal(business.body.results[0].matches[0].source.attribution, 'Deutsche Bundesbank');
    assert.match(business.body.registry.fingerprint, /^[0-9a-f]{16}$/);
  });

  test('at most 25 matches per identifier, marked truncated', async () => {
    const reply = await post('/bank-intelligence/lookup', service.keys.starter, {
      value: 'COBADEFF',
      type: 'bic',
    });
    assert.equal(reply.body.results[0].matches.length, 25);
    assert.equal(reply.body.results[0].truncated, true);
  });

  test('plan gate from Starter (402) and clear 400s for bad identifiers, all before any debit', async () => {
    assertError(
      await post('/bank-intelligence/lookup', service.keys.free, { value: 'SYNTDEK1XXX' }),
      402,
      'payment_required',
    );
    const pass = await post('/bank-intelligence/lookup', service.keys.pass24h, {
      value: 'SYNTDEK1XXX',
    });
    assertError(pass, 402, 'payment_required');
    assert.equal(pass.body.required_plan, 'starter');
    const key = service.keys.starter;
    const before = creditsUsed(service, key, 'api_calls');
    assertError(
      await post('/bank-intelligence/lookup', key, { value: 'x'.repeat(129) }),
      400,
      'invalid_argument',
    );
    assertError(
      await post('/bank-intelligence/lookup', key, { value: 'SYNTDEK1XXX', type: 't'.repeat(41) }),
      400,
      'invalid_argument',
    );
    assertError(
      await post('/bank-intelligence/lookup', key, {
        identifiers: Array.from({ length: 1001 }, () => ({ value: 'A1' })),
      }),
      400,
      'invalid_argument',
    );
    assertError(
      await post('/bank-intelligence/lookup', key, {
        value: 'SYNTDEK1XXX',
        identifiers: [{ value: 'SYNTDEK1XXX' }],
      }),
      400,
      'invalid_argument',
    );
    assertError(await post('/bank-intelligence/lookup', key, {}), 400, 'invalid_argument');
    const unknownType = await post('/bank-intelligence/lookup', key, {
      value: 'SYNTDEK1XXX',
      type: 'passport',
    });
    assertError(unknownType, 400, 'invalid_argument');
    assert.match(unknownType.body.message, /bic, lei, bank_code/);
    assert.equal(
      creditsUsed(service, key, 'api_calls'),
      before,
      'refused and failed lookups cost nothing',
    );
  });
});

describe('POST /bank-intelligence/search', () => {
  test('Pro and up; reserves the limit and commits the records returned', async () => {
    assertError(
      await post('/bank-intelligence/search', service.keys.starter, { query: 'synthetische' }),
      402,
      'payment_required',
    );
    const key = service.keys.pro;
    const before = creditsUsed(service, key, 'api_calls');
    const reply = await post('/bank-intelligence/search', key, {
      query: 'Synthetische Testbank',
      limit: 500,
    });
    assert.equal(reply.status, 200, reply.text);
    assert.ok(reply.body.results.length >= 2);
    assert.ok(reply.body.results.every((r: any) => /SYNTHETISCHE TESTBANK/i.test(r.legal_name)));
    assert.equal(reply.body.charged_api_credits, reply.body.results.length);
    assert.equal(creditsUsed(service, key, 'api_calls') - before, reply.body.results.length);
    const none = await post('/bank-intelligence/search', key, { query: 'zzzznothing' });
    assert.equal(none.body.count, 0);
    assert.equal(none.body.charged_api_credits, 1, 'a search costs at least one credit');
    const filtered = await post('/bank-intelligence/search', key, {
      query: 'synthetische',
      country_code: 'AT',
      record_type: 'branch',
    });
    assert.deepEqual(
      filtered.body.results.map((r: any) => r.record_key),
      ['99903'],
    );
    const byStatus = await post('/bank-intelligence/search', key, {
      query: 'synthetic',
      status: 'issued',
      source_id: 'gleif-lei',
    });
    assert.equal(byStatus.body.count, 2);
  });

  test('bounds: query 2-120, country_code exactly 2, limit 1-1000', async () => {
    const key = service.keys.pro;
    assertError(
      await post('/bank-intelligence/search', key, { query: 'a' }),
      400,
      'invalid_argument',
    );
    assertError(
      await post('/bank-intelligence/search', key, { query: 'a'.repeat(121) }),
      400,
      'invalid_argument',
    );
    assertError(
      await post('/bank-intelligence/search', key, { query: 'bank', country_code: 'DEU' }),
      400,
      'invalid_argument',
    );
    assertError(
      await post('/bank-intelligence/search', key, { query: 'bank', limit: 1001 }),
      400,
      'invalid_argument',
    );
    assertError(
      await post('/bank-intelligence/search', key, { query: 'bank', limit: 0 }),
      400,
      'invalid_argument',
    );
  });
});

describe('GET /bank-intelligence/record/{record_id}', () => {
  test('the record with resolved parent relationships; free keys see LOCKED names and identifiers', async () => {
    const lookup = await post('/bank-intelligence/lookup', service.keys.starter, {
      value: 'SYNTHCHILD0000000111',
      type: 'lei',
    });
    const child = lookup.body.results[0].matches.find((r: any) => r.record_type === 'legal_entity');
    const reply = await get(`/bank-intelligence/record/${child.record_id}`, service.keys.business);
    assert.equal(reply.status, 200, reply.text);
    const parents = reply.body.record.parents;
    assert.deepEqual(parents.map((p: any) => [p.relationship_type, p.lei]).sort(), [
      ['IS_DIRECTLY_CONSOLIDATED_BY', 'SYNTHPARENT000000198'],
      ['IS_ULTIMATELY_CONSOLIDATED_BY', 'SYNTHULTIMATE0000185'],
    ]);
    assert.equal(
      parents.find((p: any) => p.lei === 'SYNTHPARENT000000198').legal_name,
      'Synthetic Parent Holding (synthetic)',
    );
    assert.equal(
      parents.find((p: any) => p.lei === 'SYNTHULTIMATE0000185').record_id,
      null,
      'a parent the registry does not hold stays unresolved',
    );
    assert.equal(
      reply.body.record.published_fields['Entity.LegalName'],
      'Synthetic Child Bank (synthetic)',
    );
    const free = await get(`/bank-intelligence/record/${child.record_id}`, service.keys.free);
    assert.equal(free.body.record.legal_name, 'LOCKED');
    assert.equal(free.body.record.lei, 'LOCKED');
    assert.equal(free.body.record.premium_fields_locked, true);
  });

  test('400 for ids that are not integers of at least 1, 404 for unknown ids', async () => {
    assertError(
      await get('/bank-intelligence/record/0', service.keys.pro),
      400,
      'invalid_argument',
    );
    assertError(
      await get('/bank-intelligence/record/abc', service.keys.pro),
      400,
      'invalid_argument',
    );
    assertError(
      await get('/bank-intelligence/record/1?extra=1', service.keys.pro),
      400,
      'invalid_argument',
    );
    const missing = await get('/bank-intelligence/record/99999999', service.keys.pro);
    assertError(missing, 404, 'not_found');
    assert.match(missing.body.message, /No registry record 99999999/);
  });
});

describe('POST /bank-intelligence/export', () => {
  test('CSV with the documented columns, a no_match row, API credits per identifier plus one export credit', async () => {
    const key = service.keys.business;
    const before = [creditsUsed(service, key, 'api_calls'), creditsUsed(service, key, 'exports')];
    const reply = await post('/bank-intelligence/export', key, {
      identifiers: [{ value: 'SYNTDEK1XXX' }, { value: 'ZZZZDEZZXXX' }],
    });
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.headers.get('content-type') ?? '', /^text\/csv/);
    const lines =
      reply.text.trim().split('\r\n').length > 1
        ? reply.text.trim().split('\r\n')
        : reply.text.trim().split('\n');
    assert.equal(lines[0], exportColumns.join(','));
    assert.match(lines[1] ?? '', /^bic,SYNTDEK1XXX,1,matched,/);
    assert.match(lines[lines.length - 1] ?? '', /^bic,ZZZZDEZZXXX,,no_match,/);
    assert.deepEqual(
      [
        creditsUsed(service, key, 'api_calls') - before[0]!,
        creditsUsed(service, key, 'exports') - before[1]!,
      ],
      [2, 1],
    );
  });

  test('per-plan query caps (Business 250, Enterprise 1,000) and the Starter gate are 402', async () => {
    assertError(
      await post('/bank-intelligence/export', service.keys.free, { value: 'SYNTDEK1XXX' }),
      402,
      'payment_required',
    );
    const ids = (n: number) => ({
      identifiers: Array.from({ length: n }, (_, i) => ({ value: `SYNT${i}` })),
    });
    const pro = await post('/bank-intelligence/export', service.keys.pro, ids(101));
    assertError(pro, 402, 'payment_required');
    assert.equal(pro.body.required_plan, 'business');
    const business = await post('/bank-intelligence/export', service.keys.business, ids(251));
    assertError(business, 402, 'payment_required');
    assert.equal(business.body.required_plan, 'enterprise');
    assert.equal(
      (await post('/bank-intelligence/export', service.keys.enterprise, ids(251))).status,
      200,
    );
  });
});

describe('GET /bank-intelligence/sources and /changes', () => {
  test('sources need Business (403 otherwise) and carry snapshot dates, attribution, licences and row counts', async () => {
    assertError(
      await get('/bank-intelligence/sources', service.keys.pro),
      403,
      'permission_denied',
    );
    const reply = await get('/bank-intelligence/sources', service.keys.business);
    assert.equal(reply.status, 200, reply.text);
    const byId = Object.fromEntries(reply.body.results.map((s: any) => [s.source_id, s]));
    assert.equal(byId['bankdata-germany'].origin, 'embedded');
    assert.match(byId['bankdata-germany'].license, /MIT/);
    assert.match(byId['bankdata-germany'].version, /^2\.\d+\.\d+$/);
    assert.equal(byId['bankdata-germany'].snapshots.length, 2);
    assert.equal(byId['bundesbank-blz'].current_snapshot.file_name, 'bundesbank-synthetic.txt');
    assert.match(byId['bundesbank-blz'].current_snapshot.file_sha256, /^[0-9a-f]{64}$/);
    assert.equal(byId['bundesbank-blz'].row_count, 3);
  });

  test('changes need Enterprise (403 otherwise): registry-change/1.0 events, newest first, paged, limit 1-1000', async () => {
    assertError(
      await get('/bank-intelligence/changes', service.keys.business),
      403,
      'permission_denied',
    );
    const key = service.keys.enterprise;
    const page = await get('/bank-intelligence/changes?source_id=bankdata-germany&limit=2', key);
    assert.equal(page.status, 200, page.text);
    assert.equal(page.body.results.length, 2);
    const [first, second] = page.body.results;
    assert.equal(first.schema, 'registry-change/1.0');
    assert.ok(first.event_id > second.event_id);
    assert.ok(first.detected_at && first.previous_snapshot_id < first.snapshot_id);
    const next = await get(
      `/bank-intelligence/changes?source_id=bankdata-germany&limit=2&before_event_id=${page.body.next_before_event_id}`,
      key,
    );
    assert.ok(next.body.results[0].event_id < second.event_id);
    assertError(await get('/bank-intelligence/changes?limit=0', key), 400, 'invalid_argument');
    assertError(await get('/bank-intelligence/changes?limit=1001', key), 400, 'invalid_argument');
    assertError(
      await get('/bank-intelligence/changes?source_id=nope', key),
      400,
      'invalid_argument',
    );
  });
});

describe('registry watchlists', () => {
  test('scoped to the key: create (idempotent), list, read, changes, delete; other keys get 404', async () => {
    const key = service.keys.pro;
    const changed = (
      await get(
        '/bank-intelligence/changes?source_id=bankdata-germany&limit=200',
        service.keys.enterprise,
      )
    ).body.results.find((e: any) => e.change_type === 'modified');
    const created = await post('/registry/watchlists', key, {
      source_id: 'bankdata-germany',
      record_key: changed.record_key,
    });
    assert.equal(created.status, 201, created.text);
    const watch = created.body.watch;
    assert.equal(watch.match_status, 'matched');
    assert.equal(watch.delivery, 'poll');
    assert.deepEqual(
      (
        await post('/registry/watchlists', key, {
          source_id: 'bankdata-germany',
          record_key: changed.record_key,
        })
      ).body.watch,
      watch,
    );
    assert.ok(
      (await get('/registry/watchlists', key)).body.watchlists.some(
        (w: any) => w.watch_id === watch.watch_id,
      ),
    );
    assert.ok(
      !(await get('/registry/watchlists', service.keys.business)).body.watchlists.some(
        (w: any) => w.watch_id === watch.watch_id,
      ),
    );
    assertError(
      await get(`/registry/watchlists/${watch.watch_id}`, service.keys.business),
      404,
      'not_found',
    );
    assertError(
      await call(service.base, `/registry/watchlists/${watch.watch_id}`, {
        key: service.keys.business,
        method: 'DELETE',
      }),
      404,
      'not_found',
    );
    const changes = await get(`/registry/watchlists/${watch.watch_id}/changes`, key);
    assert.equal(changes.status, 200, changes.text);
    assert.deepEqual(
      changes.body.changes.map((e: any) => e.event_id),
      [changed.event_id],
    );
    const deleted = await call(service.base, `/registry/watchlists/${watch.watch_id}`, {
      key,
      method: 'DELETE',
    });
    assert.equal(deleted.body.deleted, true);
    assertError(await get(`/registry/watchlists/${watch.watch_id}`, key), 404, 'not_found');
  });

  test('an unknown record is no_match, an unknown source is 400', async () => {
    const key = service.keys.starter;
    const none = await post('/registry/watchlists', key, {
      source_id: 'bundesbank-blz',
      record_key: '000000',
    });
    assert.equal(none.body.watch.match_status, 'no_match');
    assertError(
      await post('/registry/watchlists', key, { source_id: 'nope', record_key: '1' }),
      400,
      'invalid_argument',
    );
    assertError(
      await post('/registry/watchlists', key, {
        source_id: 'bundesbank-blz',
        record_key: 'k'.repeat(129),
      }),
      400,
      'invalid_argument',
    );
    assertError(await get('/registry/watchlists/wl_unknown', key), 404, 'not_found');
  });

  test('migration fixture: the published successor, same synthetic account on both sides, deterministic', async () => {
    const key = service.keys.pro;
    // Fixture record 900003: BLZ 99999902, deletion flag 1, successor 99999901 (all synthetic). Watched by its bank code.
    const watch = (
      await post('/registry/watchlists', key, {
        source_id: 'bundesbank-blz',
        record_key: '99999902',
      })
    ).body.watch;
    assert.equal(watch.match_status, 'matched');
    const fixture = await get(`/registry/watchlists/${watch.watch_id}/migration-fixture`, key);
    assert.equal(fixture.status, 200, fixture.text);
    assert.equal(fixture.body.basis, 'successor');
    assert.equal(fixture.body.synthetic, true);
    assert.equal(fixture.body.before.bank_code, '99999902');
    assert.equal(fixture.body.after.bank_code, '99999901');
    assert.equal(fixture.body.after.bic, 'SYNTDEK1XXX');
    assert.equal(
      fixture.body.before.iban.slice(12),
      fixture.body.after.iban.slice(12),
      'the same synthetic account',
    );
    assert.ok(
      ['passed', 'failed'].includes(fixture.body.after.national_check),
      "the new bank's imported method judges the moved account",
    );
    assert.deepEqual(
      (await get(`/registry/watchlists/${watch.watch_id}/migration-fixture`, key)).body,
      fixture.body,
    );
  });
});

describe('GET /registry/time-machine', () => {
  test('Enterprise only; the current record, its published history and source-published upcoming dates', async () => {
    assertError(
      await get(
        '/registry/time-machine?source_id=bundesbank-blz&record_key=99999902',
        service.keys.business,
      ),
      403,
      'permission_denied',
    );
    const key = service.keys.enterprise;
    const reply = await get(
      '/registry/time-machine?source_id=bundesbank-blz&record_key=99999902',
      key,
    );
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.record_key, '99999902');
    // The bank code with its country names the same main record; the branch is reached by bank code and record number.
    assert.equal(
      (await get('/registry/time-machine?source_id=bundesbank-blz&record_key=DE:99999902', key))
        .body.record_id,
      reply.body.record_id,
    );
    const branch = await get(
      '/registry/time-machine?source_id=bundesbank-blz&record_key=99999901-900002',
      key,
    );
    assert.equal(branch.body.match_status, 'matched');
    assert.equal(branch.body.current.record_type, 'branch');
    assert.equal(reply.body.match_status, 'matched');
    assert.ok(reply.body.registry.fingerprint && Number.isInteger(reply.body.registry.version));
    const kinds = reply.body.upcoming.map((u: any) => u.kind).sort();
    assert.deepEqual(kinds, ['deletion_planned', 'successor']);
    assert.equal(reply.body.upcoming.find((u: any) => u.kind === 'successor').value, '99999901');
    assert.ok(reply.body.gaps.some((gap: string) => /History starts with snapshot/.test(gap)));
    const renewal = await get(
      '/registry/time-machine?source_id=gleif-lei&record_key=SYNTHCHILD0000000111',
      key,
    );
    assert.deepEqual(
      renewal.body.upcoming.map((u: any) => [u.kind, u.effective_at]),
      [['next_renewal', '2099-01-01']],
    );
    const none = await get(
      '/registry/time-machine?source_id=bundesbank-blz&record_key=424242',
      key,
    );
    assert.equal(none.body.match_status, 'no_match');
    assert.equal(none.body.current, null);
    assert.deepEqual(none.body.history, []);
    assertError(
      await get('/registry/time-machine?source_id=nope&record_key=1', key),
      400,
      'invalid_argument',
    );
    assertError(
      await get('/registry/time-machine?source_id=bundesbank-blz', key),
      400,
      'invalid_argument',
    );
  });
});

describe('bank metadata on IBAN rows comes from the imported registry', () => {
  test('an imported Bundesbank method makes the German national check run; GLEIF fills bank_intelligence', async () => {
    const generated = await post('/generate', service.keys.pro, {
      country: 'DE',
      quantity: 3,
      seed: 'registry',
      targeting: { bank: '99999901' },
    });
    assert.equal(generated.status, 200, generated.text);
    for (const row of generated.body) {
      assert.equal(
        row.national_check,
        'passed',
        'method 00 of the imported file is checked for real',
      );
      assert.equal(row.bank_intelligence.domestic_registry.account_checksum_method, '00');
      assert.equal(row.swift_code, 'SYNTDEK1XXX');
    }
    const calculated = await post('/iban/calculate', service.keys.pro, {
      country: 'AT',
      bank_code: '99901',
      account_number: '12345678901',
    });
    assert.equal(calculated.status, 200, calculated.text);
    assert.deepEqual(
      [
        calculated.body.bank_intelligence.lei,
        calculated.body.bank_intelligence.legal_name,
        calculated.body.bank_intelligence.entity_status,
        calculated.body.bank_intelligence.registration_status,
      ],
      ['SYNTHPARENT000000198', 'Synthetic Parent Holding (synthetic)', 'ACTIVE', 'ISSUED'],
    );
    const validated = await post('/validate', service.keys.pro, {
      ibans: [calculated.body.iban, generated.body[0].iban],
    });
    assert.deepEqual(
      validated.body.map((row: any) => row.bank_name),
      ['Synthetische Testbank AG', 'Synthetische Testbank Köln'],
    );
  });
});

describe('cached record views', () => {
  test('are frozen per registry version: an import while the service runs shows on the next lookup', async () => {
    const lookup = async () => {
      const reply = await post('/bank-intelligence/lookup', service.keys.business, {
        value: 'SYNTDEK1XXX',
        type: 'bic',
      });
      assert.equal(reply.status, 200, reply.text);
      return reply.body.results[0].matches[0];
    };
    const before = await lookup();
    assert.equal(before.legal_name, 'Synthetische Testbank Köln');
    assert.deepEqual(await lookup(), before, 'a repeated lookup answers the same view');
    // The next file renames the bank (same field width) under a later snapshot date.
    const renamed = Buffer.from(
      Buffer.from(readFixture('bundesbank-synthetic-latin1.txt'))
        .toString('latin1')
        .replace('999999011Synthetische Testbank Köln', '999999011Synthetische Testbank Bonn'),
      'latin1',
    );
    await importIntoRegistry(service.dataDir, [
      {
        file: {
          sourceId: 'bundesbank-blz',
          bytes: renamed,
          fileName: 'bundesbank-synthetic.txt',
          snapshotDate: '2026-03-02',
        },
      },
    ]);
    const after = await lookup();
    assert.equal(after.legal_name, 'Synthetische Testbank Bonn');
    assert.equal(after.source.snapshot_date, '2026-03-02');
    assert.notEqual(after.source.snapshot_id, before.source.snapshot_id);
    assert.notEqual(after.source.row_sha256, before.source.row_sha256);
  });
});

describe('restart', () => {
  test('sources, records, events, watches and the registry identity survive a restart', async () => {
    const keys = service.keys; // demo keys are shown on first start only
    const watch = (
      await post('/registry/watchlists', keys.pro, { source_id: 'oenb-sepa', record_key: '99901' })
    ).body.watch;
    const sources = (await get('/bank-intelligence/sources', keys.business)).body;
    await service.stop();
    service = await startTestService({ dataDir: service.dataDir });
    const again = (await get('/bank-intelligence/sources', keys.business)).body;
    assert.deepEqual(again.results, sources.results);
    assert.deepEqual(again.registry, sources.registry);
    assert.equal(
      (await get(`/registry/watchlists/${watch.watch_id}`, keys.pro)).body.watch.record_key,
      '99901',
    );
  });
});
