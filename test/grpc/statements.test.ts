// Goal: the statement review over gRPC: a client-streaming upload with the same rules and answer as the
// multipart upload, the review RPC (pending, then the report), deletion, and another key's 404.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { statementPaths } from '../../src/statements/open.js';
import {
  keyMetadata,
  unary,
  type IbanQaClient,
  withServiceAndGrpcClient,
} from '../helpers/grpc-client.js';
import { call, type TestService } from '../helpers/service.js';
import { upload } from '../statements/client.js';
import { statementPdf } from '../statements/corpus.js';
import { germanSpec } from '../statements/samples.js';

let service: TestService;
let client: IbanQaClient;
withServiceAndGrpcClient((started) => ({ service, client } = started));

interface UploadReply {
  readonly error: ServiceError | null;
  readonly response: any;
}

/** Sends the bytes in chunks of `chunkBytes`; the first message also carries the text fields. */
function analyze(
  bytes: Uint8Array,
  metadata: Metadata,
  fields: Record<string, string> = {},
  chunkBytes = 64 * 1024,
): Promise<UploadReply> {
  return new Promise((resolve) => {
    const call = client.AnalyzeStatement!(
      metadata,
      (error: ServiceError | null, response: unknown) => resolve({ error, response }),
    );
    if (bytes.length === 0) call.write({ ...fields });
    for (let offset = 0; offset < bytes.length; offset += chunkBytes) {
      call.write({
        data: Buffer.from(bytes.subarray(offset, offset + chunkBytes)),
        ...(offset === 0 ? fields : {}),
      });
    }
    call.end();
  });
}

async function settled(reviewId: string, key: string): Promise<any> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const reply = await unary(
      client,
      'GetStatementReview',
      { review_id: reviewId },
      keyMetadata(key),
    );
    assert.equal(reply.error, null);
    if (reply.response.status !== 'pending_analysis') return reply.response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('review did not settle');
}

test('AnalyzeStatement streams an upload, GetStatementReview returns the report, DeleteStatementReview removes it', async () => {
  const pdf = await statementPdf(germanSpec);
  const accepted = await analyze(
    pdf,
    keyMetadata(service.keys.pro),
    { filename: 'statement.pdf', expected_bank: germanSpec.bankName },
    700,
  );
  assert.equal(accepted.error, null, accepted.error?.details);
  assert.equal(accepted.response.status, 'pending_analysis');
  assert.equal(accepted.response.review_step, 'queued');
  assert.equal(accepted.response.quota.limit, 100);
  assert.equal(accepted.response.quota.unlimited, false);
  const id = accepted.response.review_id as string;
  const report = await settled(id, service.keys.pro);
  assert.equal(report.status, 'completed');
  assert.equal(report.risk_level, 'low');
  assert.equal(report.is_bank_statement, true);
  assert.equal(report.extracted_fields.iban, 'DE89370400440532013000');
  assert.equal(report.extracted_fields.statement_period.start, '2025-01-01');
  assert.ok(
    report.positive_signals.some(
      (signal: { code: string }) => signal.code === 'EXPECTED_BANK_MATCH',
    ),
  );
  assert.equal(report.iban_checks[0].swift_code, germanSpec.bic);

  const foreign = await unary(
    client,
    'GetStatementReview',
    { review_id: id },
    keyMetadata(service.keys.business),
  );
  assert.equal(foreign.error?.code, status.NOT_FOUND);
  const foreignDelete = await unary(
    client,
    'DeleteStatementReview',
    { review_id: id },
    keyMetadata(service.keys.business),
  );
  assert.equal(foreignDelete.error?.code, status.NOT_FOUND);

  const file = join(statementPaths(service.dataDir).uploads, `${id}.upload`);
  assert.ok(existsSync(file));
  const deleted = await unary(
    client,
    'DeleteStatementReview',
    { review_id: id },
    keyMetadata(service.keys.pro),
  );
  assert.equal(deleted.error, null);
  assert.equal(deleted.response.deleted, true);
  assert.ok(!existsSync(file));
  assert.equal(
    (await unary(client, 'GetStatementReview', { review_id: id }, keyMetadata(service.keys.pro)))
      .error?.code,
    status.NOT_FOUND,
  );
});

/** JSON null and an absent proto3 optional field mean the same; so do an empty list and an absent repeated field. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) {
      if (entry === null || entry === undefined || (Array.isArray(entry) && entry.length === 0))
        continue;
      out[key] = normalize(entry);
    }
    return out;
  }
  return value;
}

test('a completed review reads the same over REST and gRPC, field for field', async () => {
  const accepted = await upload(
    service.base,
    await statementPdf({ ...germanSpec, producer: 'iLovePDF' }),
    { key: service.keys.pro, expectedBank: 'Deutsche Kreditbank' },
  );
  const id = accepted.body.review_id as string;
  const viaGrpc = await settled(id, service.keys.pro);
  const viaRest = await call(service.base, `/statement-validator/review/${id}`, {
    key: service.keys.pro,
  });
  assert.equal(viaRest.status, 200);
  assert.ok(viaRest.body.risk_signals.length >= 2);
  assert.deepEqual(normalize(viaGrpc), normalize(viaRest.body));
});

test('the upload rules hold over gRPC with the same error codes', async () => {
  const pdf = await statementPdf(germanSpec);
  const cases: [string, Promise<UploadReply>][] = [
    [
      'statement_file_missing',
      analyze(new Uint8Array(0), keyMetadata(service.keys.pro), { expected_bank: 'x' }),
    ],
    [
      'statement_file_unsupported_type',
      analyze(Buffer.from('plain text, not a statement file'), keyMetadata(service.keys.pro)),
    ],
    [
      'statement_file_too_large',
      analyze(
        Buffer.concat([pdf, Buffer.alloc(8 * 1024 * 1024)]),
        keyMetadata(service.keys.pro),
        {},
        1024 * 1024,
      ),
    ],
  ];
  for (const [code, pending] of cases) {
    const reply = await pending;
    assert.equal(reply.error?.code, status.INVALID_ARGUMENT, code);
    assert.equal(reply.error?.metadata.get('error')[0], code);
  }
  const keyless = await analyze(pdf, keyMetadata(undefined));
  assert.equal(keyless.error?.code, status.UNAUTHENTICATED);
});
