// Goal: over gRPC every RPC needs a key (the keyless validate mode is REST only, as the proto says), a request
// message that is not what the proto declares is INVALID_ARGUMENT (never OK, never INTERNAL), calls are counted
// in /metrics with REST requests, and the start-up log names the uWS build. Method: the real service, grpc-js
// clients; malformed messages are hand-encoded protobuf bytes sent with an identity serializer.
import assert from 'node:assert/strict';
import { credentials, Client, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { after, before, test } from 'node:test';
import { pino } from 'pino';
import { call, startTestService, type TestService } from '../helpers/service.js';
import { grpcClient, keyMetadata, unary, type IbanQaClient } from '../helpers/grpc-client.js';
import { lengthDelimited, tag, text, varint } from '../helpers/protobuf-wire.js';

const logLines: string[] = [];
let service: TestService;
let client: IbanQaClient;
let raw: Client;
before(async () => {
  service = await startTestService({
    logger: pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }),
  });
  client = grpcClient(service.grpcAddress);
  raw = new Client(service.grpcAddress, credentials.createInsecure());
});
after(async () => {
  client.close();
  raw.close();
  await service.dispose();
});

const iban = 'DE89370400440532013000';

function rawCall(
  method: string,
  bytes: number[],
  key: string | undefined = service.keys.pro,
): Promise<{ error: ServiceError | null; response: Buffer | undefined }> {
  return new Promise((resolve) => {
    raw.makeUnaryRequest(
      `/ibanqa.v1.IbanQa/${method}`,
      (b: Buffer) => b,
      (b: Buffer) => b,
      Buffer.from(bytes),
      keyMetadata(key),
      (error, response) => resolve({ error: error ?? null, response }),
    );
  });
}

test('Validate without x-api-key is UNAUTHENTICATED with the Error trailers; with a key it is served', async () => {
  const keyless = await unary(client, 'Validate', { ibans: [iban] }, new Metadata());
  assert.equal(keyless.error?.code, status.UNAUTHENTICATED);
  assert.equal(keyless.error?.metadata.get('error')[0], 'Invalid API key');
  assert.equal(typeof keyless.error?.metadata.get('request_id')[0], 'string');
  const keyed = await unary(client, 'Validate', { ibans: [iban] }, keyMetadata(service.keys.free));
  assert.equal(keyed.error, null);
});

test('well-formed hand-encoded messages are served (the wire check refuses nothing valid)', async () => {
  assert.equal((await rawCall('Validate', lengthDelimited(1, text(iban)))).error, null);
  assert.equal(
    (await rawCall('Validate', [])).error?.code,
    status.INVALID_ARGUMENT,
    'no ibans is a validation error, as over REST',
  );
  const generate = [
    ...lengthDelimited(1, text('DE')),
    ...tag(2, 0),
    ...varint(3),
    ...tag(4, 0),
    1,
    ...lengthDelimited(5, lengthDelimited(1, text('Berlin'))),
  ];
  const reply = await rawCall('Generate', generate, service.keys.business);
  // Served, or refused for the target only: either way the nested Targeting decoded to {city: 'Berlin'}.
  assert.ok(
    reply.error === null ||
      (reply.error.code === status.NOT_FOUND && reply.error.details.includes('{"city":"Berlin"}')),
    reply.error?.details,
  );
});

test('malformed request messages are INVALID_ARGUMENT with a reason, never OK and never INTERNAL', async () => {
  const malformed: [string, string, number[]][] = [
    ['Validate', 'unknown field', [...lengthDelimited(1, text(iban)), ...tag(2, 0), 1]],
    [
      'Validate',
      'unknown length-delimited field',
      [...lengthDelimited(1, text(iban)), ...lengthDelimited(99, text('x'))],
    ],
    ['Validate', 'string field sent as a varint', [...tag(1, 0), 5]],
    ['Validate', 'string field sent as fixed32', [...tag(1, 5), 1, 2, 3, 4]],
    ['Validate', 'invalid UTF-8', lengthDelimited(1, [0x44, 0x45, 0xff, 0xfe])],
    ['Validate', 'truncated length', [...tag(1, 2), 40, ...text('DE89')]],
    ['Validate', 'truncated varint', [...tag(1, 2), 0x80]],
    ['Validate', 'field number 0', [0x02, 0x00]],
    ['Validate', 'start group', [...tag(1, 3)]],
    ['Generate', 'bool of 2', [...lengthDelimited(1, text('DE')), ...tag(4, 0), 2]],
    [
      'Generate',
      'int32 sent length-delimited',
      [...lengthDelimited(1, text('DE')), ...lengthDelimited(2, [1, 2])],
    ],
    [
      'Generate',
      'unknown field inside a nested message',
      [...lengthDelimited(1, text('DE')), ...lengthDelimited(5, [...tag(9, 0), 1])],
    ],
    [
      'Generate',
      'nested message truncated',
      [...lengthDelimited(1, text('DE')), ...tag(5, 2), 9, ...tag(1, 2), 20],
    ],
  ];
  for (const [method, what, bytes] of malformed) {
    const reply = await rawCall(method, bytes, service.keys.business);
    assert.equal(
      reply.error?.code,
      status.INVALID_ARGUMENT,
      `${method} ${what}: ${reply.error?.code} ${reply.error?.details}`,
    );
    assert.match(reply.error?.details ?? '', /Malformed/, what);
    assert.equal(typeof reply.error?.metadata.get('request_id')[0], 'string');
  }
});

test('gRPC calls are counted in /metrics with the transport label, next to REST requests', async () => {
  await unary(client, 'Validate', { ibans: [iban] }, keyMetadata(service.keys.free));
  await unary(client, 'Validate', { ibans: [iban] }, new Metadata());
  const text = (await call(service.base.replace('/api/v1', ''), '/metrics')).text;
  const count = (labels: string) =>
    Number(new RegExp(`ibanqa_requests_total\\{${labels}\\} (\\d+)`).exec(text)?.[1] ?? 0);
  assert.ok(
    count('op="iban.validate",outcome="OK",transport="grpc"') >= 1,
    text
      .split('\n')
      .filter((l) => l.startsWith('ibanqa_requests'))
      .join('\n'),
  );
  assert.ok(count('op="iban.validate",outcome="UNAUTHENTICATED",transport="grpc"') >= 1);
});

test('the start-up log names the uWS build in use and why newer builds were skipped', () => {
  const line = logLines
    .map((entry) => JSON.parse(entry) as { msg: string; build?: string; skipped?: unknown[] })
    .find((entry) => entry.msg.startsWith('REST front:'));
  assert.ok(line, 'a start-up line about the uWS build');
  assert.match(line.build ?? '', /uws/i);
  assert.ok(Array.isArray(line.skipped));
});
