// Goal: a REST request whose body has not fully arrived by the body deadline gets 408 with the Error object,
// then the connection closes, before uWS would drop it without a word; a JSON body, an upload and a head with no
// body at all alike; a body that completes in time is served; nothing is debited. Method: the real service, a
// raw TCP client trickling one byte every 100 ms (as the report that found it), timing the answer and the close.
// The four requests run at once, each on its own connection: each waits out the 6 s deadline (or 4 s of
// trickling), which is time on the clock, not work, and the sweep that expires them serves every pending body
// alike. They share nothing but the pro key, whose usage only the first reads, and the third's upload, refused
// with 408, debits nothing either.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { limits } from '../../src/limits.js';
import { call, startTestService, type TestService } from '../helpers/service.js';

let service: TestService;
let port: number;
before(async () => {
  service = await startTestService();
  port = Number(new URL(service.base).port);
});
after(async () => {
  await service?.dispose();
});

interface Trickled {
  readonly status: number | null;
  readonly head: string;
  readonly body: string;
  readonly answeredAfterMs: number | null;
  readonly closedAfterMs: number | null;
  readonly bodyBytesSent: number;
}

/** True once `received` holds a whole answer: its head and as many body bytes as its Content-Length says. */
function answerComplete(received: string): boolean {
  const end = received.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(received.slice(0, end))?.[1] ?? NaN);
  return received.length - (end + 4) >= length;
}

/**
 * Sends the head at once, then the body one byte every `gapMs`; stops writing when an answer arrives. Waits for
 * the close (or `waitMs`), or with `untilAnswered` only until the whole answer is in: a served request's
 * keep-alive connection stays open, and nothing is to be learnt from waiting for its close.
 */
function trickle(
  head: string,
  body: Buffer,
  gapMs = 100,
  waitMs = 15_000,
  untilAnswered = false,
): Promise<Trickled> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let answeredAfterMs: number | null = null;
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (closedAfterMs: number | null) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      const end = received.indexOf('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? NaN) || null,
        head: end < 0 ? received : received.slice(0, end),
        body: end < 0 ? '' : received.slice(end + 4),
        answeredAfterMs,
        closedAfterMs,
        bodyBytesSent: sent,
      });
    };
    const giveUp = setTimeout(() => finish(null), waitMs);
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (answeredAfterMs !== null || sent >= body.length) return clearInterval(timer);
        socket.write(body.subarray(sent, sent + 1));
        sent += 1;
      }, gapMs);
    });
    socket.on('data', (data: Buffer) => {
      answeredAfterMs ??= Date.now() - started;
      received += data.toString('latin1');
      if (untilAnswered && answerComplete(received)) finish(null);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => finish(Date.now() - started));
  });
}

function jsonHead(path: string, length: number, key?: string): string {
  return (
    `POST /api/v1${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${length}\r\n${key === undefined ? '' : `X-API-Key: ${key}\r\n`}\r\n`
  );
}

function assertTimedOut(reply: Trickled): void {
  assert.equal(reply.status, 408, reply.head);
  const body = JSON.parse(reply.body) as { error: string; message: string; request_id: string };
  assert.equal(body.error, 'request_timeout');
  assert.match(body.message, /did not arrive within 6 s/);
  assert.equal(body.request_id, /\r\nx-request-id: ([^\r]*)/i.exec(reply.head)?.[1]);
  const deadline = limits.httpBodyDeadlineMs;
  assert.ok(
    reply.answeredAfterMs !== null && reply.answeredAfterMs >= deadline,
    `${reply.answeredAfterMs}`,
  );
  // Before uWS's own cut (8 s at the earliest), with the sweep's and a busy machine's slack.
  assert.ok(
    reply.answeredAfterMs < deadline + limits.httpBodyDeadlineSweepMs + 1_500,
    `${reply.answeredAfterMs}`,
  );
  assert.ok(reply.closedAfterMs !== null, 'the connection closes after the 408');
  assert.ok(reply.closedAfterMs - reply.answeredAfterMs < 1_000, `${reply.closedAfterMs}`);
}

describe('slow bodies, four connections at once', { concurrency: true }, () => {
  test('a JSON body at one byte per 100 ms gets 408 with the Error object, then the connection closes', async () => {
    const before = await call(service.base, '/usage', { key: service.keys.pro });
    const body = Buffer.from(JSON.stringify({ ibans: Array(20).fill('DE89370400440532013000') }));
    const reply = await trickle(jsonHead('/validate', body.length, service.keys.pro), body);
    assertTimedOut(reply);
    assert.ok(reply.bodyBytesSent < body.length);
    const after = await call(service.base, '/usage', { key: service.keys.pro });
    assert.deepEqual(after.body, before.body, 'a timed-out request debits nothing');
  });

  test('a head announcing a body that never comes gets 408', async () => {
    assertTimedOut(await trickle(jsonHead('/validate', 100), Buffer.alloc(0)));
  });

  test('a statement upload trickling in gets 408', async () => {
    const boundary = 'slow-boundary';
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.pdf"\r\n` +
        `Content-Type: application/pdf\r\n\r\n%PDF-1.4 ${'x'.repeat(200)}\r\n--${boundary}--\r\n`,
    );
    const head =
      `POST /api/v1/statement-validator/analyze HTTP/1.1\r\nHost: x\r\nX-API-Key: ${service.keys.pro}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`;
    assertTimedOut(await trickle(head, body));
  });

  test('a slow body that completes before the deadline is served, and the service serves on', async () => {
    const body = Buffer.from(JSON.stringify({ ibans: ['DE89370400440532013000'] }));
    // 38 bytes at 100 ms: about 4 s, inside the 6 s deadline.
    const reply = await trickle(jsonHead('/validate', body.length), body, 100, 10_000, true);
    assert.equal(reply.status, 200, reply.body);
    const next = await call(service.base, '/validate', {
      body: { ibans: ['DE89370400440532013000'] },
    });
    assert.equal(next.status, 200);
  });
});
