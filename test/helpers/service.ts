import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import assert from 'node:assert/strict';
import type { CreditKind, PlanId } from '../../src/accounts/plans.js';
import type { Clock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { startService, type RunningService } from '../../src/main.js';
import { observedStatusesEnv } from './observed-statuses.js';
import { seedEmbeddedRegistry } from './registry-template.js';

export interface TestService {
  readonly base: string;
  readonly grpcAddress: string;
  readonly running: RunningService;
  readonly dataDir: string;
  /** One raw key per plan (the demo keys of the fresh store). */
  readonly keys: Readonly<Record<PlanId, string>>;
  stop(): Promise<void>;
  /** Stop and remove the data directory. */
  dispose(): Promise<void>;
}

/** Starts the real service (uWS, grpc-js, piscina, LMDB) on ephemeral loopback ports in a temp data dir. */
export async function startTestService(
  options: {
    dataDir?: string;
    env?: NodeJS.ProcessEnv;
    logger?: Logger;
    /** Fixed ports, as a deployment has them (uSockets treats a given port differently from port 0). */
    ports?: { http: number; grpc: number };
    /** The service's clock (default: the system clock): pins time for every part, pool workers included. */
    clock?: Clock;
  } = {},
): Promise<TestService> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'ibanqa-test-'));
  if (options.dataDir === undefined) await seedEmbeddedRegistry(dataDir);
  // IBANQA_TEST_HTTP_THREADS=N runs every service a test starts with N REST front threads (unset: the default, 1).
  const threads =
    process.env.IBANQA_TEST_HTTP_THREADS === undefined
      ? {}
      : { IBANQA_HTTP_THREADS: process.env.IBANQA_TEST_HTTP_THREADS };
  // Every service a test starts records what it answers, for the observed-statuses check (test/zz-contract).
  const config = loadConfig(
    { IBANQA_POOL_THREADS: '2', ...observedStatusesEnv(), ...threads, ...options.env },
    {
      host: '127.0.0.1',
      httpPort: options.ports?.http ?? 0,
      grpcPort: options.ports?.grpc ?? 0,
      dataDir,
    },
  );
  const running = await startService(
    config,
    options.logger ?? pino({ level: 'silent' }),
    options.clock === undefined ? {} : { clock: options.clock },
  );
  const keys = Object.fromEntries(running.demoKeys.map((key) => [key.plan, key.key])) as Record<
    PlanId,
    string
  >;
  return {
    base: `http://127.0.0.1:${running.httpPort}/api/v1`,
    grpcAddress: `127.0.0.1:${running.grpcPort}`,
    running,
    dataDir,
    keys,
    stop: () => running.close(),
    async dispose() {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface JsonReply {
  readonly status: number;
  readonly body: any;
  readonly text: string;
  readonly headers: Headers;
}

/** A real HTTP client call (undici fetch). */
export async function call(
  base: string,
  path: string,
  init: {
    method?: string;
    key?: string;
    body?: unknown;
    raw?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<JsonReply> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.key !== undefined) headers['x-api-key'] = init.key;
  const payload = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  if (payload !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? (payload === undefined ? 'GET' : 'POST'),
    headers,
    ...(payload === undefined ? {} : { body: payload }),
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // CSV and other text bodies stay text
  }
  return { status: response.status, body, text, headers: response.headers };
}

/** Credits of one kind a key has used in its current period, read from the running service's ledger. */
export function creditsUsed(
  service: TestService,
  key: string,
  kind: CreditKind = 'api_calls',
): number {
  const now = service.running.clock();
  const account = service.running.store.authenticate(key, now);
  assert.ok(account, 'the key authenticates');
  return service.running.meter.balance(account, now)[kind].used;
}
