// Goal: nothing a client sends over REST crashes the service, reaches an assert, or is read loosely:
// bad percent-escapes, loose integers, forged X-Forwarded-For, smuggling-shaped framing, odd request ids;
// and the small edges every answer owes (security headers, HEAD on health, the keyless 429's numbers).
// Method: the real service on loopback, fetch as client, raw sockets where fetch would clean the request up.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, startTestService, type JsonReply, type TestService } from '../helpers/service.js';
import { rawExchange } from '../helpers/raw-http.js';

const uuidV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const keylessBody = { ibans: ['DE89370400440532013000'] };

function assertErrorObject(reply: JsonReply, status: number, error: string): void {
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.body.error, error);
  assert.equal(typeof reply.body.message, 'string');
  assert.equal(reply.body.request_id, reply.headers.get('x-request-id'));
}

let service: TestService;
/** Behind a listed proxy (loopback and 10/8), with CORS on: each test counts keyless use under its own forwarded address. */
let proxied: TestService;
let root: string;
let port: number;
before(async () => {
  [service, proxied] = await Promise.all([
    startTestService(),
    startTestService({
      env: {
        IBANQA_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8',
        IBANQA_CORS_ORIGINS: 'https://harness.example, http://localhost:3000',
      },
    }),
  ]);
  root = service.base.replace('/api/v1', '');
  port = service.running.httpPort;
});
after(async () => {
  await Promise.all([service.dispose(), proxied.dispose()]);
});

describe('path parameters', () => {
  test('a malformed percent-escape is a 400 Error object, with or without a key, and the service keeps serving', async () => {
    for (const key of [undefined, service.keys.enterprise]) {
      const options = key === undefined ? {} : { key };
      assertErrorObject(
        await call(service.base, '/registry/watchlists/%FF%FE/migration-fixture', options),
        400,
        'invalid_argument',
      );
      assertErrorObject(
        await call(service.base, '/bank-intelligence/record/%ZZ', options),
        400,
        'invalid_argument',
      );
      assertErrorObject(
        await call(service.base, '/us/routing/%E0%A4%A', options),
        400,
        'invalid_argument',
      );
    }
    assert.equal((await call(root, '/healthz')).status, 200);
  });
});

describe('integers in the query and the path', () => {
  test('only decimal digits are integers: hex, exponents, Infinity, spaces and signs are 400', async () => {
    const key = service.keys.enterprise;
    for (const query of [
      'limit=0x10',
      'limit=1e1',
      'limit=Infinity',
      'limit=%2010',
      'offset=%20',
      'offset=-0',
      'limit=+5',
      'limit=5.0',
    ]) {
      assertErrorObject(
        await call(service.base, `/us/routing/targets?${query}`, { key }),
        400,
        'invalid_argument',
      );
    }
    for (const query of ['before_event_id=Infinity', 'before_event_id=1e309', 'limit=0x10']) {
      assertErrorObject(
        await call(service.base, `/bank-intelligence/changes?${query}`, { key }),
        400,
        'invalid_argument',
      );
    }
    for (const id of ['1%20', '0x1', '1e0', '%201']) {
      assertErrorObject(
        await call(service.base, `/bank-intelligence/record/${id}`, { key }),
        400,
        'invalid_argument',
      );
    }
    assert.equal(
      (await call(service.base, '/us/routing/targets?limit=16&offset=0', { key })).status,
      200,
    );
  });
});

describe('request framing', () => {
  test('two Content-Length headers, a Transfer-Encoding other than chunked, a non-decimal length: refused (400 or a close), never served', async () => {
    const shapes = [
      'POST /api/v1/validate HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 38\r\nContent-Length: 5\r\n\r\n{"ibans":["DE89370400440532013000"]}\r\n',
      'POST /api/v1/validate HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\n{}\n\r\n0\r\n\r\n',
      'POST /api/v1/validate HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 0x2\r\n\r\n{}',
    ];
    for (const shape of shapes) {
      const reply = await rawExchange(port, [shape], { afterAnswerMs: 300 });
      assert.ok(
        reply.status === 400 || (reply.outcome === 'close' && reply.status === null),
        `${JSON.stringify(shape.slice(0, 90))}: ${reply.outcome} ${reply.head}`,
      );
      assert.ok(reply.closed, 'the connection is closed: its framing is in doubt');
    }
  });
});

describe('X-Request-ID', () => {
  test('a value with non-ASCII bytes is replaced by a fresh id, not cut to its ASCII part', async () => {
    const head = Buffer.concat([
      Buffer.from('GET /healthz HTTP/1.1\r\nHost: a\r\nX-Request-ID: run-'),
      Buffer.from('ä€-42', 'utf8'),
      Buffer.from('\r\nConnection: close\r\n\r\n'),
    ]);
    const reply = await rawExchange(port, [head]);
    const id = /\r\nx-request-id: *([^\r]*)/i.exec(reply.head)?.[1] ?? '';
    assert.match(id, uuidV7, reply.head);
  });

  test('/metrics carries X-Request-ID', async () => {
    const reply = await call(root, '/metrics', { headers: { 'x-request-id': 'scrape-1' } });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('x-request-id'), 'scrape-1');
  });
});

describe('headers on every answer', () => {
  test('nosniff and no-store on keyed, keyless, error and health answers; no CORS header unless configured', async () => {
    const replies = [
      await call(service.base, '/generate', {
        key: service.keys.pro,
        body: { country: 'DE', quantity: 1 },
      }),
      await call(service.base, '/validate', { body: keylessBody }),
      await call(service.base, '/nope'),
      await call(root, '/healthz'),
      await call(service.base, '/generate', {
        body: { country: 'DE' },
        headers: { origin: 'https://harness.example' },
      }),
    ];
    for (const reply of replies) {
      assert.equal(reply.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(reply.headers.get('cache-control'), 'no-store');
      assert.equal(reply.headers.get('access-control-allow-origin'), null);
    }
    const preflight = await fetch(`${service.base}/generate`, {
      method: 'OPTIONS',
      headers: { origin: 'https://harness.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
  });

  test('HEAD on /healthz and /readyz answers 200 with headers and no body', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const reply = await fetch(`${root}${path}`, { method: 'HEAD' });
      assert.equal(reply.status, 200, path);
      assert.equal(await reply.text(), '');
      assert.equal(reply.headers.get('content-type'), 'application/json');
      assert.match(reply.headers.get('x-request-id') ?? '', uuidV7);
    }
  });
});

describe('CORS when configured', () => {
  test('only listed origins are echoed; a preflight from one answers 204 with the API methods and headers', async () => {
    const cors = proxied;
    {
      const allowed = await call(cors.base, '/validate', {
        body: keylessBody,
        headers: { origin: 'https://harness.example' },
      });
      assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://harness.example');
      assert.match(
        allowed.headers.get('access-control-expose-headers') ?? '',
        /X-RateLimit-Remaining/,
      );
      const other = await call(cors.base, '/validate', {
        body: keylessBody,
        headers: { origin: 'https://evil.example' },
      });
      assert.equal(other.headers.get('access-control-allow-origin'), null);
      const preflight = await fetch(`${cors.base}/generate`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://localhost:3000');
      assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /X-API-Key/);
    }
  });

  test('/mcp: a preflight allows the MCP header for a listed origin, and the POST echoes only that origin', async () => {
    const root = proxied.base.replace('/api/v1', '');
    const preflight = await fetch(`${root}/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://harness.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version, x-api-key',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://harness.example');
    const allowedHeaders = (
      preflight.headers.get('access-control-allow-headers') ?? ''
    ).toLowerCase();
    for (const header of ['content-type', 'mcp-protocol-version', 'x-api-key'])
      assert.ok(allowedHeaders.split(/,\s*/).includes(header), `${header} in ${allowedHeaders}`);
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'cors-test', version: '1.0.0' },
      },
    };
    for (const [origin, echoed] of [
      ['https://harness.example', 'https://harness.example'],
      ['https://evil.example', null],
    ] as const) {
      const reply = await fetch(`${root}/mcp`, {
        method: 'POST',
        headers: {
          origin,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(initialize),
      });
      assert.equal(reply.status, 200, await reply.clone().text());
      assert.equal(reply.headers.get('access-control-allow-origin'), echoed, origin);
      await reply.text();
    }
  });
});

describe('keyless limit per client address', () => {
  const tenIbans = { ibans: Array.from({ length: 10 }, () => 'DE89370400440532013000') };

  test('the keyless 429 carries X-RateLimit-Remaining, X-RateLimit-Reset and Retry-After, and its message states those numbers', async () => {
    const from = { 'x-forwarded-for': '198.51.100.42' };
    const local = proxied;
    {
      for (let index = 0; index < 9; index++)
        assert.equal(
          (await call(local.base, '/validate', { body: tenIbans, headers: from })).status,
          200,
        );
      assert.equal(
        (
          await call(local.base, '/validate', {
            body: { ibans: tenIbans.ibans.slice(0, 5) },
            headers: from,
          })
        ).status,
        200,
      );
      const partial = await call(local.base, '/validate', { body: tenIbans, headers: from });
      assertErrorObject(partial, 429, 'rate_limited');
      assert.equal(partial.headers.get('x-ratelimit-remaining'), '5');
      assert.equal(partial.body.remaining, 5);
      assert.match(partial.body.message, /5 IBANs left, this request needs 10/);
      const reset = partial.headers.get('x-ratelimit-reset') ?? '';
      assert.equal(partial.body.resets_at, reset);
      assert.ok(partial.body.message.includes(reset));
      const nextMidnight = new Date(
        Math.floor(Date.now() / 86_400_000) * 86_400_000 + 86_400_000,
      ).toISOString();
      assert.equal(reset, nextMidnight);
      const retryAfter = Number(partial.headers.get('retry-after'));
      assert.ok(
        Math.abs(retryAfter - (Date.parse(reset) - Date.now()) / 1000) < 5,
        `Retry-After ${retryAfter}`,
      );
      assert.equal(
        (
          await call(local.base, '/validate', {
            body: { ibans: tenIbans.ibans.slice(0, 5) },
            headers: from,
          })
        ).status,
        200,
      );
      const spent = await call(local.base, '/validate', { body: keylessBody, headers: from });
      assert.equal(spent.headers.get('x-ratelimit-remaining'), '0');
      assert.match(spent.body.message, /used up/);
    }
  });

  test('X-Forwarded-For is ignored unless the peer is a listed proxy', async () => {
    const local = service;
    let served = 0;
    for (let index = 0; index < 12; index++) {
      const reply = await call(local.base, '/validate', {
        body: tenIbans,
        headers: { 'x-forwarded-for': `198.51.100.${index}` },
      });
      if (reply.status === 200) served++;
      else assert.equal(reply.status, 429);
    }
    assert.ok(
      served < 10,
      `every forged address counted as the one socket peer (${served} of 12 served)`,
    );
  });

  test('behind a listed proxy each forwarded client has its own allowance; a forwarded value that is not an IP falls back to the peer', async () => {
    const local = proxied;
    {
      for (let index = 0; index < 10; index++) {
        assert.equal(
          (
            await call(local.base, '/validate', {
              body: tenIbans,
              headers: { 'x-forwarded-for': '198.51.100.7, 10.1.2.3' },
            })
          ).status,
          200,
        );
      }
      assert.equal(
        (
          await call(local.base, '/validate', {
            body: keylessBody,
            headers: { 'x-forwarded-for': '198.51.100.7' },
          })
        ).status,
        429,
      );
      assert.equal(
        (
          await call(local.base, '/validate', {
            body: keylessBody,
            headers: { 'x-forwarded-for': '198.51.100.8' },
          })
        ).status,
        200,
      );
      for (const forged of ['not-an-ip', '203.0.113.9:4711', '[2001:db8::1]:443', '', ' , ']) {
        const reply = await call(local.base, '/validate', {
          body: keylessBody,
          headers: { 'x-forwarded-for': forged },
        });
        assert.equal(reply.status, 200, `${JSON.stringify(forged)}: ${reply.text}`);
      }
    }
  });
});
