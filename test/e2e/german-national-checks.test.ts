// German national checks end to end on real data: with the Bundesbank's own bank-code file imported, every German row the service
// generates passes that bank's published check method, validation calls a broken account invalid_national_checksum
// (not invalid_checksum), test cases carry a national_checksum case, and a bank whose method is unknown is not_checked,
// never invalid. Method: a real service, the shared 2025-09-08 file imported into its registry, REST as the client.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { countryFormatOf, ibanCheckDigits } from '../../src/domain/iban/index.js';
import { importIntoRegistry } from '../helpers/registry-import.js';
import { call, startTestService, type TestService } from '../helpers/service.js';
import { needsShared as skip, sharedMissing, sharedPath } from '../helpers/shared.js';

const file = sharedPath('bundesbank-blz/2025-09-08/bundesbank.txt');

let service: TestService | undefined;
before(async () => {
  if (sharedMissing) return;
  service = await startTestService();
  await importIntoRegistry(service.dataDir, [
    {
      file: {
        sourceId: 'bundesbank-blz',
        bytes: readFileSync(file),
        fileName: 'bundesbank.txt',
        snapshotDate: '2025-09-08',
      },
    },
  ]);
});
after(async () => {
  await service?.dispose();
});

/** Main records (Merkmal 1) of the file: BLZ -> check method, from the fixed-width columns 1-8, 9 and 151-152. */
function methodsByBank(): Map<string, string> {
  const methods = new Map<string, string>();
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    if (line.length >= 152 && line[8] === '1') methods.set(line.slice(0, 8), line.slice(150, 152));
  }
  return methods;
}

test(
  "generated German IBANs pass their bank's published method, across many methods",
  { skip },
  async () => {
    const methods = methodsByBank();
    const oneBankPerMethod = new Map<string, string>();
    for (const [blz, method] of methods)
      if (!oneBankPerMethod.has(method)) oneBankPerMethod.set(method, blz);
    assert.ok(oneBankPerMethod.size > 80, `the file uses many methods (${oneBankPerMethod.size})`);
    for (const [method, blz] of oneBankPerMethod) {
      const reply = await call(service!.base, '/generate', {
        key: service!.keys.pro,
        body: { country: 'DE', quantity: 5, seed: `m${method}`, targeting: { bank: blz } },
      });
      assert.equal(reply.status, 200, reply.text);
      for (const row of reply.body) {
        assert.equal(row.bank_code, blz);
        assert.equal(row.national_check, 'passed', `method ${method}, bank ${blz}: ${row.iban}`);
        assert.equal(row.bank_intelligence.domestic_registry.account_checksum_method, method);
      }
      const verdicts = await call(service!.base, '/validate', {
        key: service!.keys.pro,
        body: { ibans: reply.body.map((row: any) => row.iban) },
      });
      assert.ok(
        verdicts.body.every((row: any) => row.valid && row.national_check === 'passed'),
        `method ${method} validates what it generated`,
      );
    }
  },
);

test(
  'a broken account with a correct IBAN checksum is invalid_national_checksum',
  { skip },
  async () => {
    const blz = [...methodsByBank()].find(([, method]) => method === '00')![0];
    const generated = await call(service!.base, '/generate', {
      key: service!.keys.pro,
      body: { country: 'DE', quantity: 20, seed: 'broken', targeting: { bank: blz } },
    });
    const broken: string[] = [];
    for (const row of generated.body as { account_number: string }[]) {
      const last = Number(row.account_number.at(-1));
      const bban = `${blz}${row.account_number.slice(0, 9)}${(last + 1) % 10}`;
      broken.push(`DE${ibanCheckDigits('DE', bban)}${bban}`); // mod 97 recomputed: only the national digit is wrong
    }
    const verdicts = await call(service!.base, '/validate', {
      key: service!.keys.pro,
      body: { ibans: broken },
    });
    for (const row of verdicts.body) {
      assert.equal(row.valid, false, row.iban);
      assert.equal(row.error, 'invalid_national_checksum', row.iban);
      assert.equal(row.national_check, 'failed');
    }
  },
);

test('test cases carry a national_checksum case that /validate agrees with', { skip }, async () => {
  const reply = await call(service!.base, '/test-cases', {
    key: service!.keys.pro,
    body: { country: 'DE', quantity: 25, seed: 'national' },
  });
  const national = reply.body.cases.filter(
    (testCase: any) => testCase.category === 'national_checksum',
  );
  assert.ok(
    national.length > 0,
    'a German national_checksum case exists once the registry knows the method',
  );
  const verdicts = await call(service!.base, '/validate', {
    key: service!.keys.pro,
    body: { ibans: national.map((c: any) => c.input) },
  });
  verdicts.body.forEach((row: any) => assert.equal(row.error, 'invalid_national_checksum'));
});

test('an unknown German bank is not_checked and valid, never invalid', { skip }, async () => {
  assert.ok(countryFormatOf('DE'));
  const bban = '990000011234567890';
  const iban = `DE${ibanCheckDigits('DE', bban)}${bban}`;
  const [row] = (
    await call(service!.base, '/validate', { key: service!.keys.pro, body: { ibans: [iban] } })
  ).body;
  assert.equal(row.valid, true);
  assert.equal(row.national_check, 'not_checked');
  assert.equal(row.bank_match, 'no_match');
});
