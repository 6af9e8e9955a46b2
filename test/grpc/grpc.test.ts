// Goal: the gRPC front serves the same operations with a real grpc-js client: unary RPCs, error statuses with the
// Error object's fields as trailers, the ValidateStream and GenerateStream harness paths, and server reflection.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { status, type ClientDuplexStream, type ClientReadableStream } from '@grpc/grpc-js';
import { call, creditsUsed, startTestService, type TestService } from '../helpers/service.js';
import { grpcClient, keyMetadata, unary, type IbanQaClient } from '../helpers/grpc-client.js';

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

test('ValidateStream: batches in, compact verdicts out, in order, metered per IBAN', async () => {
  const before = creditsUsed(service, service.keys.enterprise);
  const stream: ClientDuplexStream<unknown, any> = client.ValidateStream!(
    keyMetadata(service.keys.enterprise),
  );
  const replies: any[] = [];
  const done = new Promise<void>((resolve, reject) => {
    stream.on('data', (reply: any) => replies.push(reply));
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  stream.write({ ibans: ['DE89370400440532013000', 'DE89370400440532013001'], batch_id: 'a' });
  stream.write({ ibans: ['GB82WEST12345698765432', 'DE89-3704-0044'], batch_id: 'b' });
  stream.end();
  await done;
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
  const stream: ClientDuplexStream<unknown, any> = client.ValidateStream!(
    keyMetadata(service.keys.enterprise),
  );
  const ids: string[] = [];
  const done = new Promise<void>((resolve, reject) => {
    stream.on('data', (reply: any) => ids.push(reply.batch_id));
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  const batches = 40;
  for (let index = 0; index < batches; index++)
    stream.write({
      ibans: ['DE89370400440532013000', 'GB82WEST12345698765432'],
      batch_id: `${index}`,
    });
  stream.end();
  await done;
  assert.deepEqual(
    ids,
    Array.from({ length: batches }, (_, index) => `${index}`),
  );
  assert.equal(creditsUsed(service, service.keys.enterprise) - before, 2 * batches);
});

test('ValidateStream: batches behind a refused one are refunded, never charged unsent', async () => {
  const before = creditsUsed(service, service.keys.enterprise);
  const stream: ClientDuplexStream<unknown, any> = client.ValidateStream!(
    keyMetadata(service.keys.enterprise),
  );
  const ids: string[] = [];
  const failed = new Promise<any>((resolve) => {
    stream.on('data', (reply: any) => ids.push(reply.batch_id));
    stream.on('error', resolve);
    stream.on('end', () => resolve(null));
  });
  const valid = {
    ibans: ['DE89370400440532013000', 'GB82WEST12345698765432', 'FR1420041010050500013M02606'],
  };
  stream.write({ ...valid, batch_id: 'first' });
  // Refused at decoding (over the batch bound) while the batches written behind it already run.
  stream.write({
    ibans: Array.from({ length: 1_001 }, () => 'DE89370400440532013000'),
    batch_id: 'bad',
  });
  for (let index = 0; index < 20; index++) stream.write({ ...valid, batch_id: `after-${index}` });
  stream.end();
  const error = await failed;
  assert.equal(error?.code, status.INVALID_ARGUMENT);
  assert.deepEqual(ids, ['first']);
  while (service.running.meter.pendingReservations > 0) await new Promise((r) => setTimeout(r, 10));
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(
    creditsUsed(service, service.keys.enterprise) - before,
    3,
    'only the answered batch is charged',
  );
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
