import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnTs, startTimeoutMs, waitForOutput, type Child } from './child.js';
import { freePort } from './proc.js';

/** The service as its own process (never in the load client's process, so they do not share cores). */
export interface IbanqaProcess {
  readonly child: Child;
  readonly httpPort: number;
  readonly grpcPort: number;
  /** The `unlimited` demo key: metering on, usage counted, never refused. */
  readonly unlimitedKey: string;
  stop(): Promise<void>;
}

/** Starts `src/main.ts` on free 127.0.0.1 ports with a fresh data dir (so the demo keys are printed). */
export async function startIbanqa(
  extraEnv: NodeJS.ProcessEnv = {},
  nodeArgs: readonly string[] = [],
  readyWithinMs: number = startTimeoutMs,
): Promise<IbanqaProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-bench-'));
  const httpPort = await freePort();
  const grpcPort = await freePort();
  const child = spawnTs(
    'src/main.ts',
    [],
    {
      IBANQA_DATA_DIR: dataDir,
      IBANQA_HOST: '127.0.0.1',
      IBANQA_PORT: String(httpPort),
      IBANQA_GRPC_PORT: String(grpcPort),
      IBANQA_LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    nodeArgs,
  );
  const stop = async () => {
    await child.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForOutput(child, /^ibanqa: REST /m, readyWithinMs);
    const key = /^\s+unlimited\s+(iq_\S+)/m.exec(child.stdout())?.[1];
    if (key === undefined)
      throw new Error(`no unlimited demo key in the service output:\n${child.stdout()}`);
    return { child, httpPort, grpcPort, unlimitedKey: key, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
