// The VoP name-matching benchmark over REST and gRPC: plan gate, metering, bad input, and scoring a matcher.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { referenceMatch } from '../../src/domain/names/matcher.js';
import { call, creditsUsed as used, type TestService } from '../helpers/service.js';
import {
  keyMetadata,
  unary,
  type IbanQaClient,
  withServiceAndGrpcClient,
} from '../helpers/grpc-client.js';

describe('VoP benchmark over REST and gRPC', () => {
  let service: TestService;
  let client: IbanQaClient;
  withServiceAndGrpcClient((started) => ({ service, client } = started));

  it('needs Business: 402 for Pro, nothing debited; the catalog documents every perturbation', async () => {
    const pro = service.keys.pro;
    const before = used(service, pro);
    for (const [path, body] of [
      ['/vop-benchmark/catalog', undefined],
      ['/vop-benchmark/compile', {}],
      ['/vop-benchmark/score', { labels: [{ row_id: 'r0', label: 'MATCH' }] }],
    ] as const) {
      const reply = await call(service.base, path, {
        key: pro,
        ...(body === undefined ? {} : { body }),
      });
      assert.equal(reply.status, 402, path);
      assert.equal(reply.body.required_plan, 'business');
    }
    assert.equal(used(service, pro), before);
    const catalog = await call(service.base, '/vop-benchmark/catalog', {
      key: service.keys.business,
    });
    assert.equal(catalog.status, 200);
    assert.equal(catalog.body.perturbations.length, 14);
    assert.deepEqual(catalog.body.labels, ['MATCH', 'CLOSE_MATCH', 'NO_MATCH', 'NOAP']);
    assert.ok(catalog.body.holders.countries.length >= 20);
    for (const form of catalog.body.holders.legal_forms) assert.match(form.elf, /^[A-Z0-9]{4}$/);
    for (const { source } of catalog.body.facts) assert.match(source.url, /^https:\/\//);
  });

  it('compiles the same matrix over both fronts, one credit per row, filtered by outcome', async () => {
    const key = service.keys.business;
    const before = used(service, key);
    const rest = await call(service.base, '/vop-benchmark/compile', {
      key,
      body: { seed: 'qa', limit: 40, outcomes: ['CLOSE_MATCH'] },
    });
    assert.equal(rest.status, 200);
    assert.equal(used(service, key) - before, 40);
    assert.equal(rest.body.rows.length, 40);
    assert.ok(
      rest.body.rows.every(
        (row: { expected_label: string; returned_name: string | null; account_name: string }) =>
          row.expected_label === 'CLOSE_MATCH' && row.returned_name === row.account_name,
      ),
    );
    const grpc = await unary(
      client,
      'VopBenchmarkCompile',
      { seed: 'qa', limit: 40, outcomes: ['CLOSE_MATCH'] },
      keyMetadata(key),
    );
    assert.equal(grpc.error, null);
    assert.deepEqual(
      grpc.response.rows.map((row: { row_id: string; payer_name: string }) => [
        row.row_id,
        row.payer_name,
      ]),
      rest.body.rows.map((row: { row_id: string; payer_name: string }) => [
        row.row_id,
        row.payer_name,
      ]),
    );
    const unfiltered = await call(service.base, '/vop-benchmark/compile', {
      key,
      body: { seed: 'qa', limit: 200 },
    });
    const byId = new Map(unfiltered.body.rows.map((row: { row_id: string }) => [row.row_id, row]));
    for (const row of rest.body.rows.filter((r: { row_id: string }) => byId.has(r.row_id)))
      assert.deepEqual(row, byId.get(row.row_id));
  });

  it("scores labels by row id and rows themselves alike; the reference matcher's score on the default matrix", async () => {
    const key = service.keys.business;
    const matrix = await call(service.base, '/vop-benchmark/compile', { key, body: {} });
    const rows = matrix.body.rows as {
      row_id: string;
      payer_name: string;
      account_name: string;
      expected_label: string;
    }[];
    assert.equal(rows.length, 200);
    const labels = rows.map((row) => ({
      row_id: row.row_id,
      label: referenceMatch(row.payer_name, row.account_name).label,
    }));
    const before = used(service, key);
    const byId = await call(service.base, '/vop-benchmark/score', { key, body: { labels } });
    assert.equal(byId.status, 200, byId.text);
    assert.equal(used(service, key) - before, 1);
    const expectedCorrect = rows.filter((row, i) => row.expected_label === labels[i]?.label).length;
    assert.equal(byId.body.correct, expectedCorrect);
    assert.equal(byId.body.rows_scored, 200);
    assert.equal(byId.body.matrix_rows, 200);
    assert.equal(byId.body.rows_left_out, 0);
    assert.deepEqual(byId.body.left_out_row_ids, []);
    const confusionTotal = Object.values(
      byId.body.confusion_matrix as Record<string, Record<string, number>>,
    )
      .flatMap((r) => Object.values(r))
      .reduce((a, b) => a + b, 0);
    assert.equal(confusionTotal, 200);
    const asRows = await call(service.base, '/vop-benchmark/score', {
      key,
      body: {
        rows: rows
          .map((row, i) => ({ ...row, label: labels[i]?.label }))
          .map(({ row_id, payer_name, account_name, expected_label, label }) => ({
            row_id,
            payer_name,
            account_name,
            expected_label,
            label,
          })),
      },
    });
    assert.equal(asRows.status, 200, asRows.text);
    assert.deepEqual(asRows.body.confusion_matrix, byId.body.confusion_matrix);
    // The README publishes this figure for the default matrix (seed "default", 200 rows).
    assert.equal(byId.body.accuracy, 0.97);
    const grpc = await unary(client, 'VopBenchmarkScore', { labels }, keyMetadata(key));
    assert.equal(grpc.error, null);
    assert.equal(
      grpc.response.confusion_matrix.MATCH.MATCH,
      byId.body.confusion_matrix.MATCH.MATCH,
    );
    assert.equal(grpc.response.accuracy, byId.body.accuracy);
    assert.equal(grpc.response.matrix_rows, 200);
  });

  it('reports how many rows of the matrix were scored and which were left out', async () => {
    const key = service.keys.business;
    const matrix = await call(service.base, '/vop-benchmark/compile', {
      key,
      body: { seed: 'cover', limit: 30, outcomes: ['NO_MATCH', 'NOAP'] },
    });
    const ids = (matrix.body.rows as { row_id: string }[]).map((row) => row.row_id);
    const sent = ids.filter((_, i) => i % 3 !== 0);
    const body = {
      seed: 'cover',
      limit: 30,
      outcomes: ['NO_MATCH', 'NOAP'],
      labels: sent.map((row_id) => ({ row_id, label: 'NO_MATCH' })),
    };
    const reply = await call(service.base, '/vop-benchmark/score', { key, body });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.matrix_rows, 30);
    assert.equal(reply.body.rows_scored, sent.length);
    assert.equal(reply.body.rows_left_out, 30 - sent.length);
    assert.deepEqual(
      reply.body.left_out_row_ids,
      ids.filter((_, i) => i % 3 === 0),
    );
    const grpc = await unary(client, 'VopBenchmarkScore', body, keyMetadata(key));
    assert.equal(grpc.error, null);
    assert.deepEqual(grpc.response.left_out_row_ids, reply.body.left_out_row_ids);
    assert.equal(grpc.response.rows_left_out, reply.body.rows_left_out);
  });

  it('answers bad input with 400 and debits nothing', async () => {
    const key = service.keys.business;
    const before = used(service, key);
    const bad: [string, unknown][] = [
      ['/vop-benchmark/compile', { limit: 0 }],
      ['/vop-benchmark/compile', { limit: 1001 }],
      ['/vop-benchmark/compile', { outcomes: ['REJECTED'] }],
      ['/vop-benchmark/compile', { outcomes: [] }],
      ['/vop-benchmark/score', { labels: [{ row_id: 'r999', label: 'MATCH' }] }],
      ['/vop-benchmark/score', { labels: [{ row_id: 'r0', label: 'MAYBE' }] }],
      [
        '/vop-benchmark/score',
        {
          labels: [
            { row_id: 'r0', label: 'MATCH' },
            { row_id: 'r0', label: 'MATCH' },
          ],
        },
      ],
      [
        '/vop-benchmark/score',
        { rows: [{ row_id: 'r0', label: 'MATCH', payer_name: 'Somebody Else' }] },
      ],
      ['/vop-benchmark/score', { rows: [{ row_id: 'q0', label: 'MATCH' }] }],
      // A row beyond the matrix named by seed, limit (default 200) and outcomes.
      ['/vop-benchmark/score', { rows: [{ row_id: 'r250', label: 'MATCH' }] }],
      ['/vop-benchmark/score', {}],
    ];
    for (const [path, body] of bad) {
      const reply = await call(service.base, path, { key, body });
      assert.equal(reply.status, 400, `${path} ${JSON.stringify(body)}: ${reply.text}`);
      assert.equal(typeof reply.body.request_id, 'string');
    }
    assert.equal(used(service, key), before);
    const grpc = await unary(client, 'VopBenchmarkCompile', { limit: 5000 }, keyMetadata(key));
    assert.equal(grpc.error?.code, 3);
  });
});
