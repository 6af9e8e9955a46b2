// Goal: the gRPC front serves the same operations with a real grpc-js client: unary RPCs, error statuses with the
// Error object's fields as trailers, the ValidateStream and GenerateStream harness paths, and server reflection.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { status, type ClientDuplexStream, type ClientReadableStream } from '@grpc/grpc-js';
import { call, creditsUsed, startTestService, type TestService } from '../helpers/service.js';
import { grpcClient, keyMetadata, unary, type IbanQaClient } from '../helpers/grpc-client.js';
import { connect } from 'node:http2';
import { limits } from '../../src/limits.js';
import { loadIbanQaPackage } from '../../src/transport/grpc/proto.js';

let service: TestService;
let client: IbanQaClient;
before(async () => {
  service = await startTestService({ env: { IBANQA_POOL_THRESHOLD_ROWS: '2000' } });
  client = grpcClient(service.grpcAddress);
});
after(async () => {
  client.close();
  await service.dispose();
});

test('unary Generate and Validate over gRPC', async () => {
  const generated = await unary(
    client,
    'Generate',
    { country: 'PL', quantity: 4, seed: 'g' },
    keyMetadata(service.keys.pro),
  );
  assert.equal(generated.error, null);
  assert.equal(generated.response.rows.length, 4);
  const validated = await unary(
    client,
    'Validate',
    { ibans: generated.response.rows.map((row: any) => row.iban) },
    keyMetadata(service.keys.pro),
  );
  assert.ok(validated.response.rows.every((row: any) => row.valid === true));
});

test('errors carry the mapped status and the Error object fields as trailers', async () => {
  const missingKey = await unary(client, 'Generate', { country: 'DE' }, keyMetadata(undefined));
  assert.equal(missingKey.error?.code, status.UNAUTHENTICATED);
  assert.equal(missingKey.error?.metadata.get('error')[0], 'Invalid API key');
  const badCountry = await unary(
    client,
    'Generate',
    { country: 'Narnia' },
    keyMetadata(service.keys.pro, { 'x-request-id': 'grpc-1' }),
  );
  assert.equal(badCountry.error?.code, status.INVALID_ARGUMENT);
  assert.equal(badCountry.error?.metadata.get('error')[0], 'Invalid country');
  assert.equal(badCountry.error?.metadata.get('request_id')[0], 'grpc-1');
  const gated = await unary(
    client,
    'BulkDataset',
    { country: 'DE' },
    keyMetadata(service.keys.free),
  );
  assert.equal(gated.error?.code, status.FAILED_PRECONDITION);
  assert.equal(gated.error?.metadata.get('error')[0], 'bulk_dataset_requires_paid_access');
});

/** Writes `batches` on one ValidateStream and collects every reply until the stream ends or fails. */
async function validateStream(
  batches: readonly { ibans: string[]; batch_id: string }[],
): Promise<{ replies: any[]; error: any }> {
  const stream: ClientDuplexStream<unknown, any> = client.ValidateStream!(
    keyMetadata(service.keys.enterprise),
  );
  const replies: any[] = [];
  const settled = new Promise<any>((resolve) => {
    stream.on('data', (reply: any) => replies.push(reply));
    stream.on('error', resolve);
    stream.on('end', () => resolve(null));
  });
  for (const batch of batches) stream.write(batch);
  stream.end();
  return { replies, error: await settled };
}

test('ValidateStream: batches in, compact verdicts out, in order, metered per IBAN', async () => {
  const before = creditsUsed(service, service.keys.enterprise);
  const { replies, error } = await validateStream([
    { ibans: ['DE89370400440532013000', 'DE89370400440532013001'], batch_id: 'a' },
    { ibans: ['GB82WEST12345698765432', 'DE89-3704-0044'], batch_id: 'b' },
  ]);
  assert.equal(error, null);
  assert.deepEqual(
    replies.map((reply) => reply.batch_id),
    ['a', 'b'],
  );
  assert.deepEqual(replies[0].reasons, ['VALID', 'INVALID_CHECKSUM']);
  assert.deepEqual(replies[1].reasons, ['VALID', 'INVALID_CHARACTERS']);
  assert.equal(creditsUsed(service, service.keys.enterprise) - before, 4);
});

test('ValidateStream: many batches in flight answer in order, each charged once', async () => {
  const before = creditsUsed(service, service.keys.enterprise);
  const ids = Array.from({ length: 40 }, (_, index) => `${index}`);
  const { replies, error } = await validateStream(
    ids.map((id) => ({
      ibans: ['DE89370400440532013000', 'GB82WEST12345698765432'],
      batch_id: id,
    })),
  );
  assert.equal(error, null);
  assert.deepEqual(
    replies.map((reply) => reply.batch_id),
    ids,
  );
  assert.equal(creditsUsed(service, service.keys.enterprise) - before, 2 * ids.length);
});

test('ValidateStream: batches behind a refused one are refunded, never charged unsent', async () => {
  const before = creditsUsed(service, service.keys.enterprise);
  const valid = ['DE89370400440532013000', 'GB82WEST12345698765432', 'FR1420041010050500013M02606'];
  const { replies, error } = await validateStream([
    { ibans: valid, batch_id: 'first' },
    // Refused at decoding (over the batch bound) while the batches written behind it already run.
    { ibans: Array.from({ length: 1_001 }, () => 'DE89370400440532013000'), batch_id: 'bad' },
    ...Array.from({ length: 20 }, (_, index) => ({ ibans: valid, batch_id: `after-${index}` })),
  ]);
  assert.equal(error?.code, status.INVALID_ARGUMENT);
  assert.deepEqual(
    replies.map((reply) => reply.batch_id),
    ['first'],
  );
  while (service.running.meter.pendingReservations > 0) await new Promise((r) => setTimeout(r, 10));
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(
    creditsUsed(service, service.keys.enterprise) - before,
    3,
    'only the answered batch is charged',
  );
});

test('ValidateStream: a client that stops reading answers cannot make the server run more batches ahead', async () => {
  // 200 batches of 1,000 IBANs (about 5 MB) on a plain HTTP/2 stream whose answers are never read: once they fill
  // the client's 64 KiB window, answers wait, and the server stops reading after limits.streamMessagesQueuedMax
  // more batches, so most batches never run (nor are charged). Without the bound it would read and run all 200.
  const sent = 200;
  const before = creditsUsed(service, service.keys.unlimited);
  const { service: definition } = loadIbanQaPackage();
  const encode = (definition.service as any).ValidateStream.requestSerialize as (
    m: unknown,
  ) => Buffer;
  const session = connect(`http://${service.grpcAddress}`);
  const call = session.request({
    ':method': 'POST',
    ':path': '/ibanqa.v1.IbanQa/ValidateStream',
    'content-type': 'application/grpc',
    te: 'trailers',
    'x-api-key': service.keys.unlimited,
  });
  call.on('error', () => undefined); // closed below
  const ibans = Array.from({ length: 1_000 }, () => 'DE89370400440532013000');
  for (let index = 0; index < sent; index++) {
    const message = encode({ ibans, batch_id: `${index}` });
    const frame = Buffer.alloc(5); // gRPC framing: uncompressed flag, then the message length (big-endian)
    frame.writeUInt32BE(message.length, 1);
    call.write(Buffer.concat([frame, message]));
  }
  // Run batches are charged (each commits before its answer is written): wait until the count stops moving.
  let charged = -1;
  for (let waited = 0; waited < 20_000; waited += 500) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = (creditsUsed(service, service.keys.unlimited) - before) / ibans.length;
    if (now === charged && service.running.meter.pendingReservations === 0) break;
    charged = now;
  }
  call.close();
  session.destroy(); // at once: the unread answers are not waited for
  assert.ok(charged >= limits.streamMessagesQueuedMax, `ran ${charged} batches`);
  assert.ok(charged <= sent / 2, `ran ${charged} of ${sent} batches while no answer was read`);
});

test('GenerateStream repeats the rows of POST /generate and runs long streams in the pool', async () => {
  const rows: any[] = [];
  const stream: ClientReadableStream<any> = client.GenerateStream!(
    { country: 'DE', count: 2_500, seed: 'stream' },
    keyMetadata(service.keys.unlimited),
  );
  await new Promise<void>((resolve, reject) => {
    stream.on('data', (chunk: any) => rows.push(...chunk.rows));
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  assert.equal(rows.length, 2_500);
  assert.equal(new Set(rows.map((row) => row.iban)).size, 2_500);
  const rest = await call(service.base, '/generate', {
    key: service.keys.unlimited,
    body: { country: 'DE', quantity: 100, seed: 'stream' },
  });
  assert.deepEqual(
    rows.slice(0, 100).map((row) => row.iban),
    rest.body.map((row: any) => row.iban),
  );
});

test('server reflection lists the service', async () => {
  const { loadSync } = await import('@grpc/proto-loader');
  const { loadPackageDefinition, credentials } = await import('@grpc/grpc-js');
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  const reflectionProto =
    require.resolve('@grpc/reflection/build/proto/grpc/reflection/v1alpha/reflection.proto');
  const definition = loadSync(reflectionProto, { keepCase: true });
  const reflection = (loadPackageDefinition(definition) as any).grpc.reflection.v1alpha
    .ServerReflection;
  const reflectionClient = new reflection(service.grpcAddress, credentials.createInsecure());
  const stream = reflectionClient.ServerReflectionInfo();
  const reply = await new Promise<any>((resolve, reject) => {
    stream.on('data', resolve);
    stream.on('error', reject);
    stream.write({ list_services: '' });
  });
  stream.end();
  reflectionClient.close();
  assert.ok(
    reply.list_services_response.service.some((entry: any) => entry.name === 'ibanqa.v1.IbanQa'),
  );
});
