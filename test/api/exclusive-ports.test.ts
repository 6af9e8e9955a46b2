// Goal: a second service started on a port a running one holds refuses to start (exit code 1, one line on
// stderr naming the front, the port and the holder's pid), and the first keeps serving every request alone,
// for the REST and the gRPC port; front threads of one process still share their port. Method: the first
// service in this process (so its pid is the holder the line must name), the second as `npm start` runs it
// (src/main.ts in a child process with its own data directory), real HTTP and gRPC calls before and after.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { spawnTs, type Child } from '../../bench/lib/child.js';
import { freePort } from '../../bench/lib/proc.js';
import { processStartTimeoutMs } from '../helpers/service-process.js';
import { call, startTestService, type TestService } from '../helpers/service.js';
import { grpcClient, keyMetadata, unary } from '../helpers/grpc-client.js';

const VALID_IBAN = 'DE89370400440532013000';

let first: TestService;
before(async () => {
  // Fixed ports, as `npm start` has them: uSockets set SO_REUSEPORT on a given port (never on port 0).
  first = await startTestService({ ports: { http: await freePort(), grpc: await freePort() } });
});
after(async () => {
  await first?.dispose();
});

interface Exit {
  readonly code: number | null;
  readonly stderr: string;
  readonly dataDir: string;
}

/** Starts src/main.ts on the given ports and waits for it to exit (it must: the test fails on a timeout). */
async function secondService(httpPort: number, grpcPort: number): Promise<Exit> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-second-'));
  const child: Child = spawnTs('src/main.ts', [], {
    IBANQA_DATA_DIR: dataDir,
    IBANQA_HOST: '127.0.0.1',
    IBANQA_PORT: String(httpPort),
    IBANQA_GRPC_PORT: String(grpcPort),
    IBANQA_LOG_LEVEL: 'warn',
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      void child.stop();
      reject(new Error(`the second service did not exit: ${child.stdout()}`));
    }, processStartTimeoutMs);
    child.process.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  return { code, stderr: child.stderr(), dataDir };
}

function portOf(address: string): number {
  return Number(address.slice(address.lastIndexOf(':') + 1));
}

async function firstStillServesAlone(): Promise<void> {
  // Twenty fresh connections: with a shared port the kernel would hand some to the other process.
  for (let i = 0; i < 20; i++) {
    const reply = await call(first.base, '/validate', {
      key: first.keys.pro,
      body: { ibans: [VALID_IBAN] },
      headers: { connection: 'close' },
    });
    assert.equal(reply.status, 200, `request ${i}: ${reply.text}`);
  }
}

test('a second service on the REST port exits naming the port and the holder; the first serves alone', async () => {
  const restPort = Number(new URL(first.base).port);
  const exit = await secondService(restPort, await freePort());
  try {
    assert.equal(exit.code, 1, exit.stderr);
    const lines = exit.stderr.trim().split('\n');
    assert.equal(lines.length, 1, exit.stderr);
    assert.match(
      lines[0]!,
      new RegExp(`REST port 127\\.0\\.0\\.1:${restPort} is already in use by pid ${process.pid} `),
    );
    assert.match(lines[0]!, /IBANQA_PORT or --port/);
    // Refused before anything was opened: no store, no registry in its data directory.
    assert.deepEqual(readdirSync(exit.dataDir), []);
  } finally {
    rmSync(exit.dataDir, { recursive: true, force: true });
  }
  await firstStillServesAlone();
});

test('a second service on the gRPC port exits naming the gRPC port; the first answers gRPC alone', async () => {
  const grpcPort = portOf(first.grpcAddress);
  const exit = await secondService(await freePort(), grpcPort);
  try {
    assert.equal(exit.code, 1, exit.stderr);
    assert.equal(exit.stderr.trim().split('\n').length, 1, exit.stderr);
    assert.match(
      exit.stderr,
      new RegExp(`gRPC port 127\\.0\\.0\\.1:${grpcPort} is already in use by pid ${process.pid} `),
    );
    assert.match(exit.stderr, /IBANQA_GRPC_PORT or --grpc-port/);
  } finally {
    rmSync(exit.dataDir, { recursive: true, force: true });
  }
  const client = grpcClient(first.grpcAddress);
  try {
    for (let i = 0; i < 5; i++) {
      const reply = await unary(
        client,
        'Validate',
        { ibans: [VALID_IBAN] },
        keyMetadata(first.keys.pro),
      );
      assert.equal(reply.error, null, reply.error?.message);
    }
  } finally {
    client.close();
  }
  await firstStillServesAlone();
});

test('front threads of one service share its port; a second service on it is still refused', async () => {
  const threaded = await startTestService({
    env: { IBANQA_HTTP_THREADS: '2' },
    ports: { http: await freePort(), grpc: await freePort() },
  });
  try {
    const port = Number(new URL(threaded.base).port);
    const exit = await secondService(port, await freePort());
    rmSync(exit.dataDir, { recursive: true, force: true });
    assert.equal(exit.code, 1, exit.stderr);
    assert.match(exit.stderr, new RegExp(`REST port 127\\.0\\.0\\.1:${port} is already in use`));
    for (let i = 0; i < 10; i++) {
      const reply = await call(threaded.base, '/validate', {
        key: threaded.keys.pro,
        body: { ibans: [VALID_IBAN] },
        headers: { connection: 'close' },
      });
      assert.equal(reply.status, 200, reply.text);
    }
  } finally {
    await threaded.dispose();
  }
});
