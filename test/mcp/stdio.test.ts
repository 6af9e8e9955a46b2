// Goal: `ibanqa mcp`, started as an assistant starts it (a subprocess, the key in IBANQA_API_KEY, nothing else
// running for it), lists every REST operation as a tool and answers each call as REST answers it, refusals and
// metering included. Method: the SDK's own Client spawns `node --import tsx src/cli.ts mcp` on the data directory
// of a real test service (REST on port 0, the reference); the stdio processes use keys of their own, created in
// that store before they start, so the two processes never meter the same key.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { callTool, stdioClient } from './clients.js';
import * as parity from './parity.js';

let service: TestService;
let pro: Client;
let revoked: Client;
let revokedKey: string;

before(async () => {
  service = await startTestService();
  const store = service.running.store;
  const key = store.createKey('pro', new Date(), 'MCP stdio').key;
  const gone = store.createKey('pro', new Date(), 'MCP stdio, revoked');
  assert.ok(store.revokeKey(gone.id));
  revokedKey = gone.key;
  [pro, revoked] = await Promise.all([
    stdioClient(service.dataDir, key),
    stdioClient(service.dataDir, gone.key),
  ]);
});
after(async () => {
  await Promise.all([pro.close(), revoked.close()]);
  await service.dispose();
});

const asPro = () => ({ client: pro, base: service.base, restKey: service.keys.pro });

test('stdio: every operation of the OpenAPI document is a tool', () =>
  parity.assertToolsMatchDocument(pro, service.base));

test('stdio: generate, validate, lookup and profile answer as REST does', () =>
  // Two keys here: each has its own profiles left.
  parity.assertCoreToolsSameAsRest(asPro(), 'mcp-stdio', (_rest, mcp) =>
    assert.equal(typeof mcp, 'number'),
  ));

test('stdio: a plan gate, invalid input and a revoked key are refused as on REST', async () => {
  // The VoP benchmark needs Business; this key is Pro.
  await parity.assertSameRefusal(asPro(), 'vop_catalog', '/vop-benchmark/catalog', undefined, 402);
  const invalid = { country: 'DE', quantity: 0 };
  const refusal = await parity.assertGenerateRefused(asPro(), invalid, 400);
  assert.equal(refusal.error, 'invalid_argument');
  const target = { client: revoked, base: service.base, restKey: revokedKey };
  const unauthenticated = await parity.assertGenerateRefused(
    target,
    { country: 'DE', quantity: 1 },
    401,
  );
  assert.equal(unauthenticated.error, 'Invalid API key');
});

test('stdio: a tool call is metered as the REST call (the usage tool before and after)', async () => {
  const used = async () => {
    const usage = await callTool(pro, 'account_usage', {});
    assert.equal(usage.isError, false, usage.text);
    return (usage.structured?.credits as { api_calls: { used: number } }).api_calls.used;
  };
  const body = { country: 'NL', quantity: 4 };
  const before = await used();
  assert.equal((await callTool(pro, 'iban_generate', body)).isError, false);
  // Pro: one API call per generated row (REST's own charge, measured in the HTTP test against GET /usage).
  assert.equal((await used()) - before, body.quantity);
});
