// Goal: what a new user meets first. On a fresh data directory, without any import, POST /generate for Germany
// uses real bank codes (no German code starts with 0) whose accounts pass the bank's Bundesbank check method;
// with include_bank_details a paid key sees the bank's city and BIC, a free key sees them locked; city targeting
// for Berlin works; seeded rows repeat. Expected bank data come from the Bundesbank file in ../shared, read here
// by fixed positions (a second reading, independent of the importer and the shipped table).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { needsShared, sharedSources } from '../fixtures/registry/paths.js';
import { call, startTestService, type TestService } from '../helpers/service.js';

interface Published {
  readonly name: string;
  readonly city: string;
  readonly bic: string;
  readonly method: string;
}

/** Main records (Merkmal 1) of the Bundesbank release the embedded table was derived from. */
function bundesbankMainRecords(): Map<string, Published> {
  const byBlz = new Map<string, Published>();
  const text = readFileSync(
    join(sharedSources, 'bundesbank-blz/2025-09-08/bundesbank.txt'),
    'utf8',
  );
  for (const line of text.split('\r\n')) {
    if (line.charAt(8) !== '1') continue;
    const cut = (from: number, width: number) => line.slice(from - 1, from - 1 + width).trim();
    byBlz.set(cut(1, 8), {
      name: cut(10, 58),
      city: cut(73, 35),
      bic: cut(140, 11),
      method: cut(151, 2),
    });
  }
  return byBlz;
}

let service: TestService;
before(async () => {
  // A data directory of its own, not the test template: this is the service's real first start.
  service = await startTestService({ dataDir: mkdtempSync(join(tmpdir(), 'ibanqa-first-start-')) });
});
after(async () => {
  await service.dispose();
});

const generate = (key: string, body: Record<string, unknown>) =>
  call(service.base, '/generate', { key, body });

describe(
  'first German /generate on a fresh data directory, no import',
  { skip: needsShared },
  () => {
    const published = needsShared ? new Map<string, Published>() : bundesbankMainRecords();

    test("real bank codes, accounts passing the bank's check method, bank not revealed unasked", async () => {
      const reply = await generate(service.keys.pro, {
        country: 'DE',
        quantity: 50,
        seed: 'first-contact',
      });
      assert.equal(reply.status, 200, reply.text);
      for (const row of reply.body) {
        assert.ok(published.has(row.bank_code), `${row.bank_code} is a Bundesbank bank code`);
        assert.match(row.bank_code, /^[1-9]/);
        assert.equal(row.national_check, 'passed', row.iban);
        assert.deepEqual(
          [row.bank_match, row.bank_name, row.swift_code],
          ['not_requested', null, null],
        );
      }
      // The validator agrees, with the same registry.
      const verdicts = await call(service.base, '/validate', {
        key: service.keys.pro,
        body: { ibans: reply.body.map((row: any) => row.iban) },
      });
      assert.ok(
        verdicts.body.every(
          (v: any) =>
            v.valid === true && v.national_check === 'passed' && v.bank_match === 'matched',
        ),
        verdicts.text,
      );
      // Same seed, same registry: same rows.
      assert.deepEqual(
        (await generate(service.keys.pro, { country: 'DE', quantity: 50, seed: 'first-contact' }))
          .body,
        reply.body,
      );
    });

    test("include_bank_details on a paid key: the bank's published city, BIC and name; locked for a free key", async () => {
      const reply = await generate(service.keys.pro, {
        country: 'DE',
        quantity: 50,
        seed: 'first-contact',
        include_bank_details: true,
      });
      assert.equal(reply.status, 200, reply.text);
      for (const row of reply.body) {
        const bank = published.get(row.bank_code);
        assert.ok(bank, row.bank_code);
        assert.equal(row.national_check, 'passed', row.iban);
        assert.equal(row.bank_city, bank.city, row.bank_code);
        assert.equal(row.swift_code, bank.bic === '' ? null : bank.bic, row.bank_code);
        assert.equal(row.bank_name, bank.name, row.bank_code);
        assert.equal(row.bank_intelligence.domestic_registry.account_checksum_method, bank.method);
      }
      const free = await generate(service.keys.free, {
        country: 'DE',
        quantity: 3,
        seed: 'first-contact',
        include_bank_details: true,
      });
      assert.ok(
        free.body.every(
          (row: any) =>
            row.bank_name === 'LOCKED' &&
            row.swift_code === 'LOCKED' &&
            published.has(row.bank_code),
        ),
      );
    });

    test('city targeting for Berlin matches real Berlin banks', async () => {
      const reply = await generate(service.keys.pass24h, {
        country: 'DE',
        quantity: 5,
        seed: 'berlin',
        targeting: { city: 'Berlin' },
      });
      assert.equal(reply.status, 200, reply.text);
      for (const row of reply.body) {
        assert.equal(published.get(row.bank_code)?.city, 'Berlin');
        assert.equal(row.national_check, 'passed');
      }
    });
  },
);

describe('countries the registry knows from the schwifty table, and countries it does not', () => {
  test('Austria and Spain rows use published bank codes; unknown countries stay structurally plausible', async () => {
    const at = await generate(service.keys.pro, {
      country: 'AT',
      quantity: 20,
      seed: 'at',
      include_bank_details: true,
    });
    assert.ok(
      at.body.every((row: any) => row.bank_match === 'matched' && row.bank_name !== null),
      at.text,
    );
    // Pakistan, Palestine and Türkiye: the registry example accounts are numeric, so generated accounts are too.
    for (const country of ['PK', 'PS', 'TR']) {
      const reply = await generate(service.keys.pro, { country, quantity: 50, seed: 'digits' });
      assert.ok(
        reply.body.every((row: any) => /^\d+$/.test(row.account_number)),
        `${country}: ${reply.body.map((r: any) => r.account_number).join(' ')}`,
      );
    }
    // Dominican Republic: the bank code is taken from a BIC ("BAGR" in the registry example): letters.
    const dominican = await generate(service.keys.pro, {
      country: 'DO',
      quantity: 20,
      seed: 'letters',
    });
    assert.ok(
      dominican.body.every((row: any) => /^[A-Z]{4}$/.test(row.bank_code)),
      dominican.text,
    );
  });
});
