// Goal: the gRPC server lets a client send up to limits.grpcReceiveWindowBytes unread per stream and per
// connection (Node's HTTP/2 default is 64 KiB), so one ValidateStream is not bounded by the window. Method: the
// real service; a plain node:http2 client reads what the server advertised (SETTINGS) and granted (WINDOW_UPDATE).
import assert from 'node:assert/strict';
import { connect, type ClientHttp2Session } from 'node:http2';
import { once } from 'node:events';
import { after, before, test } from 'node:test';
import { Server } from '@grpc/grpc-js';
import { limits } from '../../src/limits.js';
import { widenReceiveWindow } from '../../src/transport/grpc/receive-window.js';
import { startTestService, type TestService } from '../helpers/service.js';

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(async () => {
  await service.dispose();
});

const http2Default = 65_535;

/**
 * What the server advertised and granted once its session settled: it opens with Node's defaults, then sends a
 * second SETTINGS frame and a connection WINDOW_UPDATE. A ping's answer follows frames sent before it.
 */
async function settledWindows(session: ClientHttp2Session) {
  await once(session, 'remoteSettings');
  for (let attempt = 0; attempt < 20; attempt++) {
    const settled =
      session.remoteSettings.initialWindowSize !== http2Default &&
      (session.state.remoteWindowSize ?? 0) > http2Default;
    if (settled) break;
    await new Promise((resolve) => session.ping((error) => resolve(error)));
  }
  return {
    stream: session.remoteSettings.initialWindowSize,
    connection: session.state.remoteWindowSize,
  };
}

test('the gRPC server advertises its receive window per stream and grants it per connection', async () => {
  const session = connect(`http://${service.grpcAddress}`);
  try {
    assert.deepEqual(await settledWindows(session), {
      stream: limits.grpcReceiveWindowBytes,
      connection: limits.grpcReceiveWindowBytes,
    });
  } finally {
    session.close();
  }
});

test('a grpc-js without the HTTP/2 server map keeps the default window and says why', () => {
  const said: string[] = [];
  const server = new Server();
  Object.defineProperty(server, 'http2Servers', { value: undefined });
  widenReceiveWindow(server, limits.grpcReceiveWindowBytes, (why) => said.push(why));
  assert.equal(said.length, 1);
  assert.match(said[0] ?? '', /receive window stays at 64 KiB/);
});
