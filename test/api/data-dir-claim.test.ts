// Goal: one service process per data directory. A second `npm start` (other ports) or an `ibanqa mcp` on the
// directory a running service holds exits with code 1 and a line naming the directory and the holder's pid,
// and the first keeps serving; a holder killed with SIGKILL leaves no claim behind, so the next start succeeds.
// Method: the holder is a service in this process (its pid is the one the line must name); the others are real
// child processes as a user starts them (src/main.ts, src/cli.ts mcp).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { spawnTs, type Child } from '../../bench/lib/child.js';
import { freePort } from '../../bench/lib/proc.js';
import { processStartTimeoutMs, startServiceProcess } from '../helpers/service-process.js';
import { call, startTestService, type TestService } from '../helpers/service.js';

const VALID_IBAN = 'DE89370400440532013000';

let holder: TestService;
before(async () => {
  holder = await startTestService();
});
after(async () => {
  await holder?.dispose();
});

interface Exit {
  readonly code: number | null;
  readonly output: string;
}

async function exitOf(child: Child): Promise<Exit> {
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      void child.stop();
      reject(new Error(`the process did not exit: ${child.stdout()} ${child.stderr()}`));
    }, processStartTimeoutMs);
    child.process.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  return { code, output: child.stderr() };
}

async function holderStillServes(): Promise<void> {
  const reply = await call(holder.base, '/validate', {
    key: holder.keys.pro,
    body: { ibans: [VALID_IBAN] },
  });
  assert.equal(reply.status, 200, reply.text);
}

test('a second service on a held data directory exits naming the directory and the holder', async () => {
  const child = spawnTs('src/main.ts', [], {
    IBANQA_DATA_DIR: holder.dataDir,
    IBANQA_HOST: '127.0.0.1',
    IBANQA_PORT: String(await freePort()),
    IBANQA_GRPC_PORT: String(await freePort()),
    IBANQA_LOG_LEVEL: 'warn',
  });
  const exit = await exitOf(child);
  assert.equal(exit.code, 1, exit.output);
  assert.match(exit.output, /data directory .* is already served by pid (\d+)/);
  assert.equal(/served by pid (\d+)/.exec(exit.output)?.[1], String(process.pid));
  assert.ok(exit.output.includes(holder.dataDir), exit.output);
  await holderStillServes();
});

test('ibanqa mcp on a held data directory exits naming the holder', async () => {
  const child = spawnTs('src/cli.ts', ['mcp', '--data-dir', holder.dataDir], {
    IBANQA_LOG_LEVEL: 'warn',
  });
  child.process.stdin?.end(); // no client: the refusal must come before the session matters
  const exit = await exitOf(child);
  assert.equal(exit.code, 1, exit.output);
  assert.ok(exit.output.includes(`served by pid ${process.pid}`), exit.output);
  await holderStillServes();
});

test('a service killed with SIGKILL leaves no claim: the next start on its directory serves', async () => {
  const first = await startServiceProcess({});
  try {
    first.child.process.kill('SIGKILL');
    await new Promise((resolve) => first.child.process.once('exit', resolve));
    const next = await startTestService({ dataDir: first.dataDir });
    try {
      const reply = await call(next.base, '/validate', { body: { ibans: [VALID_IBAN] } });
      assert.equal(reply.status, 200, reply.text);
    } finally {
      await next.stop();
    }
  } finally {
    await first.dispose();
  }
});
