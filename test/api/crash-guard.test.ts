// Goal: a bug on a request path is answered 500 with the Error object and logged with its request id, and the
// service keeps serving; a bug off any request path is logged and the process stays up. Method: the real REST
// front (uWS) over a real Service and LMDB account store, with three planted bugs: an op whose run throws a
// TypeError, a readiness probe that throws inside the uWS callback, and a metrics sink that throws after the
// response; plus a timer that throws. Logs are captured from pino.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pino } from 'pino';
import { AccountStore } from '../../src/accounts/account-store.js';
import { lmdbPorts } from '../../src/accounts/lmdb-ports.js';
import { compileInputValidator } from '../../src/ops/framework/input-validation.js';
import { isHttpOp, type AnyOp, type HttpOp } from '../../src/contract/op.js';
import { ibanValidate } from '../../src/ops/iban/validate.js';
import { installCrashGuards } from '../../src/process-guard.js';
import { createMemoryDirectory } from '../../src/registry/memory-directory.js';
import { Service } from '../../src/service/execute.js';
import { HttpMetrics } from '../../src/transport/http/metrics.js';
import { buildApp, listen, type HttpFront } from '../../src/transport/http/server.js';
import { trustNoProxy } from '../../src/transport/http/client-address.js';
import { call } from '../helpers/service.js';

if (!isHttpOp(ibanValidate)) throw new Error('iban.validate is served over REST');
const validateOp: HttpOp = ibanValidate;
/** The validate op with a bug planted in its run (and without the answer it writes itself, which REST would call instead). */
const { runJson: _writesItsOwnAnswer, ...validateRunOnly } = validateOp;
const explodingOp: HttpOp = {
  ...validateRunOnly,
  name: 'planted.bug',
  http: { ...validateOp.http, path: '/planted-bug' },
  run: () => {
    throw new TypeError('planted bug');
  },
};

class ThrowingMetrics extends HttpMetrics {
  armed = false;
  override observe(op: string, outcome: string, transport?: 'rest' | 'grpc'): void {
    if (this.armed) {
      this.armed = false;
      throw new RangeError('planted metrics bug');
    }
    super.observe(op, outcome, transport);
  }
}

const logLines: string[] = [];
const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
const metrics = new ThrowingMetrics();
let readinessThrows = false;
let dataDir: string;
let accounts: AccountStore;
let front: HttpFront;
let base: string;
let uninstall: () => void;

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-crash-'));
  accounts = AccountStore.open(dataDir);
  const ops: AnyOp[] = [validateOp, explodingOp];
  const service = new Service({
    state: lmdbPorts(accounts),
    data: { bank: createMemoryDirectory([]) },
    runner: { runInPool: () => Promise.reject(new Error('every op here runs inline')) },
    poolThresholdRows: 1_000_000,
    validators: new Map(ops.map((op) => [op.name, compileInputValidator(op)])),
  });
  uninstall = installCrashGuards(logger);
  const isReady = () => {
    if (readinessThrows) throw new Error('planted readiness bug');
    return true;
  };
  const app = buildApp({
    service,
    ops: [validateOp, explodingOp],
    openapi: () => ({}),
    logger,
    metrics,
    isReady,
    trustedProxies: trustNoProxy,
  });
  front = await listen(app, '127.0.0.1', 0, 'exclusive');
  base = `http://127.0.0.1:${front.port}`;
});
after(async () => {
  uninstall();
  front.close();
  await accounts.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const body = { ibans: ['DE89370400440532013000'] };
const logged = (text: string) =>
  logLines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => String(line.msg).includes(text));

test('an op that throws a TypeError is a 500 Error object, logged with the request id; the next request is served', async () => {
  const reply = await call(`${base}/api/v1`, '/planted-bug', {
    body,
    headers: { 'x-request-id': 'bug-1' },
  });
  assert.equal(reply.status, 500);
  assert.deepEqual(reply.body, {
    error: 'internal',
    message: 'internal error',
    request_id: 'bug-1',
  });
  assert.ok(logged('internal error').some((line) => line.requestId === 'bug-1'));
  assert.equal((await call(`${base}/api/v1`, '/validate', { body })).status, 200);
});

test('a throw inside the uWS callback itself is answered 500, not left hanging, and the process keeps serving', async () => {
  readinessThrows = true;
  const reply = await call(base, '/readyz', { headers: { 'x-request-id': 'bug-2' } });
  readinessThrows = false;
  assert.equal(reply.status, 500);
  assert.equal(reply.body.request_id, 'bug-2');
  assert.ok(logged('internal error').some((line) => line.requestId === 'bug-2'));
  assert.equal((await call(base, '/readyz')).status, 200);
});

test('a failure after the response is sent is logged with the request id and kills nothing', async () => {
  metrics.armed = true;
  const reply = await call(`${base}/api/v1`, '/validate', {
    body,
    headers: { 'x-request-id': 'bug-3' },
  });
  assert.equal(reply.status, 200);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(logged('failure after the response').some((line) => line.requestId === 'bug-3'));
  assert.equal((await call(`${base}/api/v1`, '/validate', { body })).status, 200);
});

test('an exception and a rejection off every request path are logged and the process stays up', () => {
  // A child process: the test runner itself reports unhandled rejections, so this cannot run in-process.
  const guard = new URL('../../src/process-guard.ts', import.meta.url).href;
  const script = `
    import { pino } from 'pino';
    import { installCrashGuards } from ${JSON.stringify(guard)};
    installCrashGuards(pino({ level: 'info' }, pino.destination(1)));
    setTimeout(() => { throw new Error('planted timer bug'); }, 1);
    void Promise.reject(new Error('planted rejection'));
    setTimeout(() => process.stdout.write(JSON.stringify({ msg: 'still alive' }) + '\\n'), 100);
  `;
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8', timeout: 20_000 },
  );
  assert.equal(child.status, 0, child.stderr);
  const messages = child.stdout
    .trim()
    .split('\n')
    .map((line) => String((JSON.parse(line) as { msg: unknown }).msg));
  assert.equal(
    messages.filter((msg) => msg.startsWith('uncaught exception')).length,
    1,
    child.stdout,
  );
  assert.equal(
    messages.filter((msg) => msg.startsWith('unhandled rejection')).length,
    1,
    child.stdout,
  );
  assert.equal(messages.at(-1), 'still alive');
});
