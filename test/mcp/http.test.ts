// Goal: an MCP client over streamable HTTP (/mcp on the REST port) lists every REST operation as a tool and gets
// from each call what REST answers for the same input: the same body, the same refusal (error, message, status),
// the same metering. Method: the SDK's own Client against a real service on port 0; every expected value is the
// REST answer to the same request, or the OpenAPI document, never the MCP code under test.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, startTestService, type TestService } from '../helpers/service.js';
import { statementPdf } from '../statements/corpus.js';
import { germanSpec } from '../statements/samples.js';
import { settle, upload } from '../statements/client.js';
import { callTool, httpClient } from './clients.js';
import {
  assertCoreToolsSameAsRest,
  assertGenerateRefused,
  assertSameRefusal,
  assertToolsMatchDocument,
} from './parity.js';

let service: TestService;
let pro: Client;
const opened: Client[] = [];

async function client(key: string | undefined): Promise<Client> {
  const connected = await httpClient(service.base, key);
  opened.push(connected);
  return connected;
}

before(async () => {
  service = await startTestService();
  pro = await client(service.keys.pro);
});
after(async () => {
  for (const connected of opened) await connected.close();
  await service.dispose();
});

test('every operation of the OpenAPI document is a tool, with the inputs the document names', () =>
  assertToolsMatchDocument(pro, service.base));

const asPro = () => ({ client: pro, base: service.base, restKey: service.keys.pro });

test('generate, validate, lookup and profile answer as REST does', () =>
  // One key for both: the MCP profile leaves one profile fewer than the REST one before it.
  assertCoreToolsSameAsRest(asPro(), 'mcp-http', (rest, mcp) =>
    assert.equal(mcp, (rest as number) - 1),
  ));

test('the tool text is the REST body byte for byte', async () => {
  const body = { country: 'FR', quantity: 2, seed: 'bytes' };
  const rest = await call(service.base, '/generate', { key: service.keys.pro, body });
  const mcp = await callTool(pro, 'iban_generate', body);
  assert.equal(mcp.text, rest.text);
});

test('a plan gate refuses the tool as it refuses REST', async () => {
  const free = await client(service.keys.free);
  const body = { country: 'DE', quantity: 10 };
  const refusal = await assertSameRefusal(
    { client: free, base: service.base, restKey: service.keys.free },
    'iban_bulk_dataset',
    '/bulk-dataset',
    body,
    402,
  );
  assert.equal(refusal.error, 'bulk_dataset_requires_paid_access');
});

test('invalid input is the same 400', async () => {
  const refusal = await assertGenerateRefused(asPro(), { country: 'DE', quantity: 0 }, 400);
  assert.equal(refusal.error, 'invalid_argument');
});

test('a revoked key is refused with 401 as on REST', async () => {
  const created = service.running.store.createKey('pro', new Date(), 'revoked for MCP');
  assert.ok(service.running.store.revokeKey(created.id));
  const revoked = await client(created.key);
  const body = { country: 'DE', quantity: 1 };
  const target = { client: revoked, base: service.base, restKey: created.key };
  const refusal = await assertGenerateRefused(target, body, 401);
  assert.equal(refusal.error, 'Invalid API key');
});

test('an exhausted key gets the same 429 facts as a tool error', async () => {
  const created = service.running.store.createKey('free', new Date(), 'exhausted over MCP');
  // Free: 50 API calls for the key's lifetime; one 50-row generate spends them.
  const spent = await call(service.base, '/generate', {
    key: created.key,
    body: { country: 'DE', quantity: 50 },
  });
  assert.equal(spent.status, 200, spent.text);
  const exhausted = await client(created.key);
  const body = { country: 'DE', quantity: 1 };
  const target = { client: exhausted, base: service.base, restKey: created.key };
  const refusal = await assertGenerateRefused(target, body, 429);
  assert.equal(refusal.credit_kind, 'api_calls');
  assert.equal(refusal.limit, 50);
  assert.equal(refusal.remaining, 0);
});

async function apiCallsUsed(key: string): Promise<number> {
  const usage = await call(service.base, '/usage', { key });
  assert.equal(usage.status, 200);
  return usage.body.credits.api_calls.used as number;
}

test('a tool call is metered as the REST call (GET /usage before and after)', async () => {
  const key = service.keys.pro;
  const body = { country: 'NL', quantity: 4 };
  const before = await apiCallsUsed(key);
  assert.equal((await call(service.base, '/generate', { key, body })).status, 200);
  const afterRest = await apiCallsUsed(key);
  assert.equal((await callTool(pro, 'iban_generate', body)).isError, false);
  const afterMcp = await apiCallsUsed(key);
  assert.ok(afterRest - before > 0, 'REST charges the call');
  assert.equal(afterMcp - afterRest, afterRest - before);
});

test('a client that asks for progress is told when the call starts and ends', async () => {
  const seen: number[] = [];
  const result = await pro.callTool(
    { name: 'iban_bulk_dataset', arguments: { country: 'DE', quantity: 20 } },
    undefined,
    { onprogress: (progress) => seen.push(progress.progress) },
  );
  assert.notEqual(result.isError, true);
  assert.deepEqual(seen, [0, 1]);
});

/** Polls the review tool until the analysis left pending (the tool answers REST's 202 while it runs). */
async function settledOverMcp(reviewId: string): Promise<Record<string, unknown>> {
  for (let polls = 0; polls < 600; polls++) {
    const result = await pro.callTool({
      name: 'statements_review',
      arguments: { review_id: reviewId },
    });
    if ((result._meta as { status: number }).status !== 202)
      return result.structuredContent as Record<string, unknown>;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`review ${reviewId} did not settle`);
}

test('a statement uploaded base64 over MCP is reviewed as the same file uploaded to REST', async () => {
  const pdf = await statementPdf(germanSpec);
  const accepted = await pro.callTool({
    name: 'statements_analyze',
    arguments: {
      statement_file: Buffer.from(pdf).toString('base64'),
      statement_file_filename: 'statement.pdf',
    },
  });
  assert.equal((accepted._meta as { status: number }).status, 202);
  const reviewId = (accepted.structuredContent as { review_id: string }).review_id;
  const viaRest = await upload(service.base, pdf, { key: service.keys.pro });
  assert.equal(viaRest.status, 202);
  const done = await settledOverMcp(reviewId);
  const reference = (await settle(service.base, service.keys.pro, viaRest.body.review_id)).body;
  assert.equal(done.status, 'completed');
  assert.deepEqual(done.extracted_fields, reference.extracted_fields);
  assert.equal(done.score, reference.score);
  // The upload rules are REST's: an empty file is its own 400, and bytes that are not base64 are bad input.
  const empty = await callTool(pro, 'statements_analyze', { statement_file: '' });
  assert.equal(empty.structured?.error, 'statement_file_empty');
  assert.equal(empty.structured?.status, 400);
  const garbled = await callTool(pro, 'statements_analyze', { statement_file: 'not base64!' });
  assert.equal(garbled.structured?.error, 'invalid_argument');
});

test('a statement over the 8 MB cap is refused as REST refuses it, before it is decoded', async () => {
  const over = 8 * 1024 * 1024 + 3;
  const rest = await upload(service.base, new Uint8Array(over), { key: service.keys.pro });
  const mcp = await callTool(pro, 'statements_analyze', {
    statement_file: 'AAAA'.repeat(over / 3),
  });
  assert.equal(mcp.structured?.status, rest.status);
  assert.equal(mcp.structured?.error, rest.body.error);
  assert.equal(mcp.structured?.bytes_max, rest.body.bytes_max);
});

test('resources: the OpenAPI document and the argument-free GETs, read as REST answers them', async () => {
  // The VoP benchmark needs Business: the resource is read with the key REST would need.
  const business = await client(service.keys.business);
  const { resources } = await business.listResources();
  const uris = resources.map((resource) => resource.uri);
  for (const path of [
    'openapi.json',
    'fixture-manifest/spec',
    'vop-benchmark/catalog',
    'payment-scenarios/catalog',
  ])
    assert.ok(uris.includes(`ibanqa://api/v1/${path}`), path);
  for (const path of ['fixture-manifest/spec', 'vop-benchmark/catalog', 'openapi.json']) {
    const read = await business.readResource({ uri: `ibanqa://api/v1/${path}` });
    const rest = await call(service.base, `/${path}`, { key: service.keys.business });
    const content = read.contents[0] as { text: string };
    assert.deepEqual(JSON.parse(content.text), rest.body, path);
  }
  // A refused read carries the REST Error object and status, as a tool error does.
  const refused = await call(service.base, '/vop-benchmark/catalog', { key: service.keys.pro });
  assert.ok(refused.status >= 400);
  await assert.rejects(
    pro.readResource({ uri: 'ibanqa://api/v1/vop-benchmark/catalog' }),
    (error: { data?: Record<string, unknown> }) =>
      error.data?.status === refused.status &&
      error.data.error === refused.body.error &&
      error.data.message === refused.body.message,
  );
});

test('POST /mcp answers with the REST front headers, and the SDK refuses what MCP does not allow', async () => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    },
  });
  const url = `${service.base.replace('/api/v1', '')}/mcp`;
  const headers = { 'content-type': 'application/json', 'x-request-id': 'mcp-raw-1' };
  const answer = await fetch(url, {
    method: 'POST',
    headers: { ...headers, accept: 'application/json, text/event-stream' },
    body: initialize,
  });
  assert.equal(answer.status, 200);
  assert.equal(answer.headers.get('x-request-id'), 'mcp-raw-1');
  assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  assert.match(answer.headers.get('content-type') ?? '', /^text\/event-stream/);
  assert.match(await answer.text(), /"serverInfo":\{"name":"ibanqa"/);
  // MCP requires a client to accept both JSON and an event stream (406 otherwise).
  const refused = await fetch(url, { method: 'POST', headers, body: initialize });
  assert.equal(refused.status, 406);
  assert.equal(((await refused.json()) as { jsonrpc: string }).jsonrpc, '2.0');
});

test('/mcp takes POST only: another method gets the router 405', async () => {
  const reply = await call(service.base.replace('/api/v1', ''), '/mcp');
  assert.equal(reply.status, 405);
  assert.equal(reply.headers.get('allow'), 'POST');
});

/** The value of one series of ibanqa_requests_total in a /metrics scrape (0 when absent). */
async function requestsCounted(op: string, outcome: string, transport: string): Promise<number> {
  const text = await (await fetch(`${service.base.replace('/api/v1', '')}/metrics`)).text();
  const series = `ibanqa_requests_total{op="${op}",outcome="${outcome}",transport="${transport}"}`;
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

test('/metrics counts each tool call by its op over transport mcp, answered and refused', async () => {
  const okBefore = await requestsCounted('iban.generate', '200 OK', 'mcp');
  const refusedBefore = await requestsCounted('iban.generate', 'invalid_argument', 'mcp');
  assert.equal(
    (await callTool(pro, 'iban_generate', { country: 'DE', quantity: 2 })).isError,
    false,
  );
  const refused = await callTool(pro, 'iban_generate', { country: 'DE', quantity: 0 });
  assert.equal(refused.isError, true);
  assert.equal(await requestsCounted('iban.generate', '200 OK', 'mcp'), okBefore + 1);
  assert.equal(
    await requestsCounted('iban.generate', 'invalid_argument', 'mcp'),
    refusedBefore + 1,
  );
});
