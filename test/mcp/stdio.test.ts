// Goal: `ibanqa mcp`, started as an assistant starts it (a subprocess, the key in IBANQA_API_KEY, nothing else
// running for it), lists every REST operation as a tool and answers each call as REST answers it, refusals and
// metering included. Method: the SDK's own Client spawns `node --import tsx src/cli.ts mcp`, each on a data
// directory of its own with a key created there before it starts; a real test service (REST on port 0) is the
// reference the answers are compared with.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AccountStore } from '../../src/accounts/index.js';
import { seedEmbeddedRegistry } from '../helpers/registry-template.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { callTool, stdioClient } from './clients.js';
import * as parity from './parity.js';

let service: TestService;
let pro: Client;
let revoked: Client;
let revokedKey: string;

/**
 * A data directory of its own for one stdio process (a service claims its directory: two processes serving one
 * would meter the same keys from two memories), with the embedded registry and one Pro key, revoked if asked.
 */
async function stdioDataDir(revoke: boolean): Promise<{ dataDir: string; key: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-mcp-stdio-'));
  dataDirs.push(dataDir);
  await seedEmbeddedRegistry(dataDir);
  const store = AccountStore.open(dataDir, 'disk');
  try {
    const created = store.createKey('pro', new Date(), 'MCP stdio');
    if (revoke) assert.ok(store.revokeKey(created.id));
    return { dataDir, key: created.key };
  } finally {
    await store.close();
  }
}

const dataDirs: string[] = [];

before(async () => {
  service = await startTestService();
  const [live, gone] = [await stdioDataDir(false), await stdioDataDir(true)];
  revokedKey = gone.key;
  [pro, revoked] = await Promise.all([
    stdioClient(live.dataDir, live.key),
    stdioClient(gone.dataDir, gone.key),
  ]);
});
after(async () => {
  await Promise.all([pro.close(), revoked.close()]);
  await service.dispose();
  for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
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
