// Goal: what a QA engineer types is accepted (the paper format "IBAN DE89 ...", a short account number, a bank code
// with its branch code), refusals say what is allowed, and every status a request meets is one the served OpenAPI
// document lists for that operation. Method: real service over REST and gRPC; expected IBANs are the SWIFT IBAN
// Registry's published examples.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { call, startTestService, type TestService } from '../helpers/service.js';
import { grpcClient, keyMetadata, unary, type IbanQaClient } from '../helpers/grpc-client.js';

let service: TestService;
let client: IbanQaClient;
let openapi: { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
before(async () => {
  service = await startTestService();
  client = grpcClient(service.grpcAddress);
  openapi = (await call(service.base, '/openapi.json')).body;
});
after(async () => {
  client.close();
  await service.dispose();
});

function documented(method: string, path: string): string[] {
  return Object.keys(openapi.paths[`/api/v1${path}`]?.[method]?.responses ?? {});
}

test('validate accepts the ISO 13616 paper format and echoes the input unchanged', async () => {
  const input = 'IBAN DE89 3704 0044 0532 0130 00';
  const reply = await call(service.base, '/validate', {
    key: service.keys.pro,
    body: { ibans: [input, 'iban gb29 nwbk 6016 1331 9268 19'] },
  });
  assert.equal(reply.status, 200);
  assert.equal(reply.body[0].valid, true);
  assert.equal(reply.body[0].iban, input);
  assert.equal(reply.body[0].bank_code, '37040044');
  assert.equal(reply.body[1].valid, true);
  const grpc = await unary(client, 'Validate', { ibans: [input] }, keyMetadata(service.keys.pro));
  assert.equal(grpc.response.rows[0].valid, true);
});

test('calculate pads a short numeric account number and splits a bank code that includes the branch code', async () => {
  const key = service.keys.pro;
  const de = await call(service.base, '/iban/calculate', {
    key,
    body: { country: 'DE', bank_code: '37040044', account_number: '532013000' },
  });
  assert.equal(de.status, 200);
  assert.equal(de.body.iban, 'DE89370400440532013000');
  const fr = await call(service.base, '/iban/calculate', {
    key,
    body: { country: 'FR', bank_code: '2004101005', account_number: '0500013M026' },
  });
  assert.equal(fr.status, 200, JSON.stringify(fr.body));
  assert.equal(fr.body.iban, 'FR1420041010050500013M02606');
  assert.equal(fr.body.branch_code, '01005');
  const it = await call(service.base, '/iban/calculate', {
    key,
    body: { country: 'Italy', bank_code: '0542811101', account_number: '123456' },
  });
  assert.equal(it.status, 200, JSON.stringify(it.body));
  assert.equal(it.body.iban, 'IT60X0542811101000000123456');
  const disagree = await call(service.base, '/iban/calculate', {
    key,
    body: {
      country: 'FR',
      bank_code: '2004101005',
      branch_code: '99999',
      account_number: '0500013M026',
    },
  });
  assert.equal(disagree.status, 400);
  assert.match(disagree.body.message, /includes the branch code 01005/);
});

test('a refused value names what is allowed', async () => {
  const reply = await call(service.base, '/test-cases', {
    key: service.keys.pro,
    body: { country: 'DE', output: 'xml' },
  });
  assert.equal(reply.status, 400);
  assert.equal(reply.body.message, 'output must be one of json, csv');
});

test('every status met here is one the OpenAPI document lists for that operation', async () => {
  const met: [string, string, number][] = [];
  const note = (method: string, path: string, status: number) => met.push([method, path, status]);
  note(
    'post',
    '/validate',
    (
      await call(service.base, '/validate', {
        body: { ibans: Array(11).fill('DE89370400440532013000') },
      })
    ).status,
  );
  note(
    'post',
    '/generate',
    (
      await call(service.base, '/generate', {
        key: service.keys.business,
        body: { country: 'DE', targeting: { bic: 'ZZZZDEZZXXX' } },
      })
    ).status,
  );
  note(
    'post',
    '/generate',
    (
      await call(service.base, '/generate', {
        key: service.keys.free,
        body: { country: 'DE', targeting: { city: 'Berlin' } },
      })
    ).status,
  );
  note(
    'post',
    '/generate',
    (await call(service.base, '/generate', { key: service.keys.pro, body: { country: 'Narnia' } }))
      .status,
  );
  note(
    'get',
    '/bank-intelligence/sources',
    (await call(service.base, '/bank-intelligence/sources', { key: service.keys.pro })).status,
  );
  note(
    'get',
    '/bank-intelligence/record/{record_id}',
    (await call(service.base, '/bank-intelligence/record/999999999', { key: service.keys.pro }))
      .status,
  );
  note(
    'get',
    '/usage',
    (await call(service.base, '/usage', { key: 'iq_00000000000000000000000000000000' })).status,
  );
  note('get', '/usage', (await call(service.base, '/usage?x=1', { key: service.keys.pro })).status);
  note(
    'post',
    '/generate',
    (
      await call(service.base, '/generate', {
        key: service.keys.free,
        body: { country: 'DE', quantity: 51 },
      })
    ).status,
  );
  const statuses = new Set(met.map(([, , status]) => status));
  for (const expected of [400, 401, 402, 403, 404, 429])
    assert.ok(statuses.has(expected), `the test meets ${expected}`);
  for (const [method, path, status] of met)
    assert.ok(
      documented(method, path).includes(String(status)),
      `${method} ${path} ${status} is documented`,
    );
  assert.ok(!documented('get', '/usage').includes('429'));
});
