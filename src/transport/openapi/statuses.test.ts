// Goal: openapi.json lists, per operation, the statuses it can really answer with (as the spec lists them per
// endpoint), not one shared list of every status the service knows. Method: the document built from the op table,
// compared with the statuses each endpoint's rules imply (spec "Errors" per-endpoint list plus our documented ones).
// That the service sends nothing else is checked against what it really answers: test/zz-contract/.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isHttpOp } from '../../contract/op.js';
import { ops } from '../../ops/table.js';
import { buildOpenApi } from './document.js';

const document = buildOpenApi(ops.filter(isHttpOp)) as {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
};

/** The `error` strings a status of an operation may carry (its schema's enum). */
function codesOf(path: string, method: string, status: string): string[] {
  const response = document.paths[`/api/v1${path}`]?.[method]?.responses[status] as
    | { content: { 'application/json': { schema: { allOf: { properties?: object }[] } } } }
    | undefined;
  assert.ok(response, `${method} ${path} ${status}`);
  const { error } = response.content['application/json'].schema.allOf[1]?.properties as {
    error: { enum: string[] };
  };
  return error.enum;
}

function statusesOf(path: string, method: string): string[] {
  const operation = document.paths[`/api/v1${path}`]?.[method];
  assert.ok(operation, `${method} ${path}`);
  return Object.keys(operation.responses).sort();
}

describe('OpenAPI statuses per operation', () => {
  it('never lists 415, which no route answers but /mcp (the MCP SDK refuses a body that is not JSON)', () => {
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods))
        assert.equal('415' in operation.responses, path === '/mcp', `${method} ${path}`);
    }
  });

  it('lists what each endpoint can answer, and only that', () => {
    // validate: keyless 429 (per-IP allowance) and keyed 429 (credits); 413 for a body over the limit, 408 for one
    // that arrives too slowly; 402 for an expired 24h Pass; 503 when a pooled request meets a full queue (or the
    // service stops).
    assert.deepEqual(statusesOf('/validate', 'post'), [
      '200',
      '400',
      '401',
      '402',
      '408',
      '413',
      '429',
      '503',
    ]);
    // generate: 402 advanced_targeting_required, 404 target_no_match.
    assert.deepEqual(statusesOf('/generate', 'post'), [
      '200',
      '400',
      '401',
      '402',
      '404',
      '408',
      '413',
      '429',
      '503',
    ]);
    // sources: 403 without provenance access; GET, so no 408 or 413.
    assert.deepEqual(statusesOf('/bank-intelligence/sources', 'get'), [
      '200',
      '400',
      '401',
      '402',
      '403',
      '429',
      '503',
    ]);
    assert.ok(statusesOf('/bank-intelligence/record/{record_id}', 'get').includes('404'));
    // usage costs nothing and does no row work: no 429; 503 only while the service stops.
    assert.deepEqual(statusesOf('/usage', 'get'), ['200', '400', '401', '402', '503']);
    // targets spend no credits: no 429.
    assert.ok(!statusesOf('/us/routing/targets', 'get').includes('429'));
    // run is idempotent by request_id: 409 for a reused request_id with another body.
    assert.ok(statusesOf('/us/routing/run', 'post').includes('409'));
    assert.ok(!statusesOf('/generate', 'post').includes('409'));
    assert.ok(!statusesOf('/generate', 'post').includes('403'));
  });

  it('lists the refusals of profiles, the AI provider and the statement review', () => {
    // spec error table: spent profile credits are 403 generation_limit_reached; an unmatched bank context 404.
    for (const path of ['/profile', '/ai-profile']) {
      assert.deepEqual(statusesOf(path, 'post'), [
        '200',
        '400',
        '401',
        '402',
        '403',
        '404',
        '408',
        '413',
        '429',
        '503',
      ]);
      assert.deepEqual(codesOf(path, 'post', '403'), ['generation_limit_reached']);
      assert.deepEqual(codesOf(path, 'post', '404'), ['target_no_match']);
    }
    // The provider unreachable, slow or answering garbage: 503 unavailable.
    assert.ok(codesOf('/ai-profile', 'post', '503').includes('unavailable'));
    for (const method of ['get', 'delete']) {
      const path = '/statement-validator/review/{review_id}';
      assert.deepEqual(codesOf(path, method, '404'), ['not_found']);
      assert.ok(!statusesOf(path, method).includes('429'), 'a poll costs nothing');
    }
    // The analysis queue full: 503 overloaded; an upload too slow to arrive 408; each bad upload its own 400 code.
    assert.deepEqual(codesOf('/statement-validator/analyze', 'post', '408'), ['request_timeout']);
    assert.ok(codesOf('/statement-validator/analyze', 'post', '503').includes('overloaded'));
    assert.deepEqual(
      codesOf('/statement-validator/analyze', 'post', '400').filter((code) =>
        code.startsWith('statement_file_'),
      ),
      [
        'statement_file_missing',
        'statement_file_duplicate',
        'statement_file_empty',
        'statement_file_too_large',
        'statement_file_unsupported_type',
      ],
    );
  });

  it('declares no security on what answers without a key, and a key on everything else', () => {
    const publicPaths = [
      '/api/v1/fixture-manifest/spec',
      '/api/v1/fixture-manifest/schema/1.0',
      '/fixture-manifest/schema/1.0',
      '/api/v1/payment-scenarios/catalog',
      '/api/v1/openapi.json',
      '/healthz',
      '/readyz',
      '/metrics',
      // Each MCP tool call checks X-API-Key as its REST operation does; the route itself asks for none.
      '/mcp',
    ];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const security = (operation as { security?: unknown }).security;
        if (publicPaths.includes(path)) assert.deepEqual(security, [], `${method} ${path}`);
        else if (path === '/api/v1/validate') assert.deepEqual(security, [{}, { ApiKey: [] }]);
        else assert.deepEqual(security, [{ ApiKey: [] }], `${method} ${path}`);
      }
    }
  });

  it('carries the licence of the project', () => {
    assert.deepEqual((document as unknown as { info: { license: unknown } }).info.license, {
      name: 'MIT',
      identifier: 'MIT',
    });
  });

  it('names the error strings a client will see under each status', () => {
    const operation = document.paths['/api/v1/generate']?.post as {
      responses: Record<string, { description: string }>;
    };
    assert.match(operation.responses['400']?.description ?? '', /"Invalid country"/);
    assert.match(operation.responses['429']?.description ?? '', /"API call limit reached"/);
    assert.match(operation.responses['402']?.description ?? '', /"advanced_targeting_required"/);
  });
});
