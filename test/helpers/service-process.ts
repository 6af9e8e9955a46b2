/**
 * The real service as its own process (src/main.ts, as `npm start` runs it): for tests that need fresh processes
 * rather than a service inside the test process. Configured only through the environment.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnTs, waitForOutput, type Child } from '../../bench/lib/child.js';
import { freePort } from '../../bench/lib/proc.js';
import { observedStatusesEnv } from './observed-statuses.js';
import { seedEmbeddedRegistry } from './registry-template.js';

export interface ServiceProcess {
  readonly child: Child;
  readonly base: string;
  readonly grpcAddress: string;
  readonly dataDir: string;
  /** The `unlimited` demo key the fresh store printed ('' when started with `demoKeys: false`). */
  readonly unlimitedKey: string;
  /** Stops exactly this process (SIGTERM, then SIGKILL); the data dir stays. */
  stop(): Promise<void>;
  /** Stops it and removes its data dir. */
  dispose(): Promise<void>;
}

/** tsx compiles on start and a first start builds the registry: generous, for a busy 2-core CI machine. */
export const processStartTimeoutMs = 180_000;

/**
 * Nodes of one database must share the statement upload key (a node with another refuses to start), as an operator
 * sets IBANQA_STATEMENT_KEY on each: a key derived from the database URL gives every node of a test's database the
 * same one unless the test sets its own.
 */
function sharedUploadKey(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const url = env.IBANQA_DATABASE_URL;
  if (url === undefined || env.IBANQA_STATEMENT_KEY !== undefined) return {};
  return { IBANQA_STATEMENT_KEY: createHash('sha256').update(url).digest('hex') };
}

/**
 * Starts a fresh process with a fresh data dir. `registryFrom` copies the registry environment of an earlier
 * data dir (read only after that process stopped), so the process skips building it from the embedded default;
 * without it the data dir starts with the embedded-default registry template (test/helpers/registry-template.ts),
 * the same registry a first start would build, without the seconds the build costs.
 */
export async function startServiceProcess(
  env: NodeJS.ProcessEnv,
  registryFrom?: string,
  /** demoKeys false: the process may print none (nodes of a shared database: only the first start of it does). */
  options: { readonly demoKeys?: boolean } = {},
): Promise<ServiceProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-process-'));
  if (registryFrom !== undefined)
    cpSync(join(registryFrom, 'registry'), join(dataDir, 'registry'), { recursive: true });
  else await seedEmbeddedRegistry(dataDir);
  const [httpPort, grpcPort] = [await freePort(), await freePort()];
  const child = spawnTs('src/main.ts', [], {
    ...observedStatusesEnv(),
    ...sharedUploadKey(env),
    ...env,
    IBANQA_DATA_DIR: dataDir,
    IBANQA_HOST: '127.0.0.1',
    IBANQA_PORT: String(httpPort),
    IBANQA_GRPC_PORT: String(grpcPort),
    IBANQA_LOG_LEVEL: 'warn',
  });
  const dispose = async () => {
    await child.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForOutput(child, /^ibanqa: REST /m, processStartTimeoutMs);
    const key = /^\s+unlimited\s+(iq_\S+)/m.exec(child.stdout())?.[1];
    if (key === undefined && options.demoKeys !== false)
      throw new Error(`no unlimited demo key in the service output:\n${child.stdout()}`);
    return {
      child,
      base: `http://127.0.0.1:${httpPort}/api/v1`,
      grpcAddress: `127.0.0.1:${grpcPort}`,
      dataDir,
      unlimitedKey: key ?? '',
      stop: () => child.stop(),
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}
