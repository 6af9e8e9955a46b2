// Goal: one gRPC connection holds at most limits.grpcConcurrentStreamsMax calls at once, so a client cannot make
// the server hold read-ahead batches for streams without end; a call beyond the cap waits for one to end and is
// then served. Method: the real service; a plain node:http2 client reads the advertised SETTINGS, and a grpc-js
// channel (one connection) fills the cap with open ValidateStream calls.
import assert from 'node:assert/strict';
import { connect } from 'node:http2';
import { once } from 'node:events';
import { after, before, test } from 'node:test';
import type { ClientDuplexStream } from '@grpc/grpc-js';
import { limits } from '../../src/limits.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { grpcClient, keyMetadata, unary, type IbanQaClient } from '../helpers/grpc-client.js';

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(() => service.dispose());

// The SWIFT IBAN registry's example IBAN for Germany.
const iban = 'DE89370400440532013000';

test('the gRPC server advertises its cap on concurrent calls per connection', async () => {
  const session = connect(`http://${service.grpcAddress}`);
  try {
    await once(session, 'remoteSettings');
    assert.equal(session.remoteSettings.maxConcurrentStreams, limits.grpcConcurrentStreamsMax);
  } finally {
    session.destroy();
  }
});

/** An open ValidateStream on the client's connection whose batches can be answered one at a time. */
function openStream(client: IbanQaClient) {
  const stream: ClientDuplexStream<unknown, any> = client.ValidateStream!(
    keyMetadata(service.keys.enterprise),
  );
  // Replies come in order, one per batch written: each settles the oldest round trip still waiting.
  const waiting: ((reply: any) => void)[] = [];
  stream.on('data', (reply: any) => waiting.shift()?.(reply));
  const ended = new Promise<unknown>((resolve) => {
    stream.on('error', resolve);
    stream.on('end', () => resolve(null));
  });
  return {
    ended,
    end: () => stream.end(),
    roundTrip(batchId: string): Promise<any> {
      const reply = new Promise<any>((resolve) => waiting.push(resolve));
      stream.write({ ibans: [iban], batch_id: batchId });
      return reply;
    },
  };
}

test('a call beyond the cap on one connection waits until a call ends, then is served', async (t) => {
  // One grpc-js client is one connection: every call below shares it.
  const client = grpcClient(service.grpcAddress);
  t.after(() => client.close());
  const streams = Array.from({ length: limits.grpcConcurrentStreamsMax }, () => openStream(client));
  // Each stream answered a batch: all of them are open at the server.
  const first = await Promise.all(
    streams.map((stream, index) => stream.roundTrip(`open-${index}`)),
  );
  assert.deepEqual(
    first.map((reply) => [reply.batch_id, reply.reasons]),
    streams.map((_, index) => [`open-${index}`, ['VALID']]),
  );

  let answered = false;
  const beyond = unary(client, 'Validate', { ibans: [iban] }, keyMetadata(service.keys.enterprise));
  void beyond.then(() => (answered = true));
  // Round trips on an open stream: the extra call, were it admitted, would have been answered long before these.
  const [probe, ...rest] = streams;
  assert.ok(probe !== undefined);
  for (let trip = 0; trip < 10; trip++)
    assert.equal((await probe.roundTrip(`probe-${trip}`)).batch_id, `probe-${trip}`);
  assert.equal(answered, false, 'the call beyond the cap ran while the cap was full');

  const last = rest.at(-1);
  assert.ok(last !== undefined);
  last.end();
  assert.equal(await last.ended, null);
  const reply = await beyond;
  assert.equal(reply.error, null);
  assert.equal(reply.response.rows[0].valid, true);

  for (const stream of streams.slice(0, -1)) stream.end();
  assert.deepEqual(
    await Promise.all(streams.map((stream) => stream.ended)),
    streams.map(() => null),
  );
});
