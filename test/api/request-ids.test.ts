// Goal: a client's X-Request-ID is echoed only when it is 1-128 printable ASCII characters; anything else the
// service can see (non-ASCII, control bytes, over-long) is replaced by a generated UUIDv7 and the answer says so
// (X-Request-ID-Replaced), over REST and gRPC, in the header and in the Error object's request_id. Method: the
// real service; REST over raw TCP so the exact bytes reach the server (fetch refuses non-ASCII headers), gRPC
// over a plain node:http2 stream (grpc-js clients refuse them too).
import assert from 'node:assert/strict';
import { connect } from 'node:http2';
import { after, before, describe, test } from 'node:test';
import { rawExchange } from '../helpers/raw-http.js';
import { startTestService, type TestService } from '../helpers/service.js';

const uuidV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(async () => {
  await service?.dispose();
});

interface Seen {
  readonly status: number | null;
  readonly id: string | undefined;
  readonly replaced: string | undefined;
  readonly bodyId: string | undefined;
}

/** GET /usage with the raw bytes of an X-Request-ID header; what came back. */
async function restWith(value: Buffer): Promise<Seen> {
  const port = Number(new URL(service.base).port);
  const head = Buffer.concat([
    Buffer.from(`GET /api/v1/usage HTTP/1.1\r\nHost: x\r\nX-API-Key: ${service.keys.pro}\r\n`),
    Buffer.from('X-Request-ID: '),
    value,
    Buffer.from('\r\nConnection: close\r\n\r\n'),
  ]);
  const reply = await rawExchange(port, [head], { waitMs: 10_000 });
  const header = (name: string) =>
    new RegExp(`\\r\\n${name}: ([^\\r]*)`, 'i').exec(`\r\n${reply.head}`)?.[1];
  return {
    status: reply.status,
    id: header('x-request-id'),
    replaced: header('x-request-id-replaced'),
    bodyId: undefined,
  };
}

describe('REST', () => {
  test('1 and 128 printable ASCII characters are echoed, with no replacement said', async () => {
    for (const value of ['a', '~'.repeat(128), 'harness run #42 (retry)']) {
      const seen = await restWith(Buffer.from(value, 'latin1'));
      assert.equal(seen.status, 200);
      assert.equal(seen.id, value);
      assert.equal(seen.replaced, undefined);
    }
  });

  test('over-long, non-ASCII inside, DEL and tab are replaced by a UUIDv7 and the answer says so', async () => {
    const values = [
      Buffer.from('x'.repeat(129)),
      Buffer.from('café-run', 'utf8'),
      Buffer.from([0x61, 0xe9, 0x62]), // a Latin-1 byte, not UTF-8
      Buffer.from('run\x7f7'),
      Buffer.from('run\t7'),
    ];
    for (const value of values) {
      const seen = await restWith(value);
      assert.equal(seen.status, 200, value.toString('latin1'));
      assert.match(seen.id ?? '', uuidV7, value.toString('latin1'));
      assert.match(seen.replaced ?? '', /not 1-128 printable ASCII/);
    }
  });

  test('the Error object carries the replacing id too', async () => {
    const port = Number(new URL(service.base).port);
    const reply = await rawExchange(
      port,
      [
        Buffer.concat([
          Buffer.from('POST /api/v1/validate HTTP/1.1\r\nHost: x\r\nX-Request-ID: '),
          Buffer.from('ünï-x', 'utf8'),
          Buffer.from(
            '\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
          ),
        ]),
      ],
      { waitMs: 10_000 },
    );
    assert.equal(reply.status, 400);
    const id = /\r\nx-request-id: ([^\r]*)/i.exec(`\r\n${reply.head}`)?.[1];
    assert.match(id ?? '', uuidV7);
    assert.equal((JSON.parse(reply.body) as { request_id: string }).request_id, id);
  });

  test('an empty header is no value: a generated id, nothing said replaced', async () => {
    const seen = await restWith(Buffer.alloc(0));
    assert.equal(seen.status, 200);
    assert.match(seen.id ?? '', uuidV7);
    assert.equal(seen.replaced, undefined);
  });
});

/** GetUsage over a plain HTTP/2 stream with the given x-request-id; the answer's initial metadata. */
async function grpcWith(value: string): Promise<Record<string, unknown>> {
  const session = connect(`http://${service.grpcAddress}`);
  try {
    const call = session.request({
      ':method': 'POST',
      ':path': '/ibanqa.v1.IbanQa/GetUsage',
      'content-type': 'application/grpc',
      te: 'trailers',
      'x-api-key': service.keys.pro,
      'x-request-id': value,
    });
    call.end(Buffer.alloc(5)); // one empty message: uncompressed flag 0, length 0
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      call.once('response', (received) => resolve(received));
      call.once('error', reject);
    });
    call.resume();
    await new Promise((resolve) => call.once('close', resolve));
    return headers;
  } finally {
    session.close();
  }
}

describe('gRPC', () => {
  // Control bytes (DEL included) never reach the service here: Node's HTTP/2 layer (nghttp2) discards a field
  // whose value has them (RFC 9113 §8.2.1), so such a call is one without an id: it gets a generated one.
  test('printable ASCII is echoed; non-ASCII and over-long are replaced and said so', async () => {
    const echoed = await grpcWith('grpc-run-7');
    assert.equal(echoed['x-request-id'], 'grpc-run-7');
    assert.equal(echoed['x-request-id-replaced'], undefined);
    for (const value of ['café', 'ünï', 'x'.repeat(129)]) {
      const seen = await grpcWith(value);
      assert.match(String(seen['x-request-id']), uuidV7, value);
      assert.match(String(seen['x-request-id-replaced']), /not 1-128 printable ASCII/, value);
    }
  });
});
