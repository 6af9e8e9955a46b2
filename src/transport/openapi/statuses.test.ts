// Goal: openapi.json lists, per operation, the statuses it can really answer with (as the spec lists them per
// endpoint), not one shared list of every status the service knows. Method: the document built from the op table,
// compared with the statuses each endpoint's rules imply (spec "Errors" per-endpoint list plus our documented ones).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isHttpOp } from '../../ops/framework/op.js';
import { ops } from '../../ops/table.js';
import { buildOpenApi } from './document.js';

const document = buildOpenApi(ops.filter(isHttpOp)) as {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
};

function statusesOf(path: string, method: string): string[] {
  const operation = document.paths[`/api/v1${path}`]?.[method];
  assert.ok(operation, `${method} ${path}`);
  return Object.keys(operation.responses).sort();
}

describe('OpenAPI statuses per operation', () => {
  it('never lists 415, which no route answers', () => {
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods))
        assert.ok(!('415' in operation.responses), `${method} ${path}`);
    }
  });

  it('lists what each endpoint can answer, and only that', () => {
    // validate: keyless 429 (per-IP allowance) and keyed 429 (credits); 413 for a body over the limit, 408 for one
    // that arrives too slowly; 402 for an expired 24h Pass; 503 when a pooled request meets a full queue.
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
    // usage costs nothing and does no row work: no 429, no 503.
    assert.deepEqual(statusesOf('/usage', 'get'), ['200', '400', '401', '402']);
    // targets spend no credits: no 429.
    assert.ok(!statusesOf('/us/routing/targets', 'get').includes('429'));
    // run is idempotent by request_id: 409 for a reused request_id with another body.
    assert.ok(statusesOf('/us/routing/run', 'post').includes('409'));
    assert.ok(!statusesOf('/generate', 'post').includes('409'));
    assert.ok(!statusesOf('/generate', 'post').includes('403'));
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
