import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** A child we started; stop() ends exactly this pid (SIGTERM, then SIGKILL after a grace period). */
export interface Child {
  readonly pid: number;
  readonly process: ChildProcess;
  /** Everything the child printed on stdout so far. */
  stdout(): string;
  stderr(): string;
  stop(): Promise<void>;
}

/** Children still running: killed on exit so a crashed bench leaves no server behind. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});
// A bench stopped with SIGTERM or Ctrl-C would otherwise exit without 'exit' handlers and leave its service running.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    for (const child of live) child.kill('SIGKILL');
    process.exit(128 + (signal === 'SIGTERM' ? 15 : 2));
  });
}

/** How long a child gets to shut down cleanly before SIGKILL. */
const stopGraceMs = 3_000;
/** tsx compiles on first start; the service also opens LMDB and its worker pool. BENCH_START_TIMEOUT_MS raises it
 *  when the shared machine is so busy (load average 20+ on 2 cores) that a start takes longer. */
export const startTimeoutMs = Number(process.env.BENCH_START_TIMEOUT_MS ?? 30_000);

/** Starts `node [...nodeArgs] --import tsx <script> ...args` from the repository root. */
export function spawnTs(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  nodeArgs: readonly string[] = [],
): Child {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`could not start ${script}`);
  live.add(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => live.delete(child));
  return {
    pid: child.pid,
    process: child,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), stopGraceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resolves with the first stdout match of `pattern`; rejects if the child exits or the time runs out. */
export function waitForOutput(
  child: Child,
  pattern: RegExp,
  timeoutMs = startTimeoutMs,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const match = pattern.exec(child.stdout());
      if (match === null) return false;
      finish();
      resolve(match);
      return true;
    };
    const onExit = () => {
      finish();
      reject(
        new Error(
          `child ${child.pid} exited before printing ${pattern}:\n${child.stderr().slice(-2000)}`,
        ),
      );
    };
    const timer = setTimeout(() => {
      finish();
      reject(
        new Error(
          `child ${child.pid} printed no ${pattern} within ${timeoutMs} ms:\n${child.stderr().slice(-2000)}`,
        ),
      );
    }, timeoutMs);
    const onData = () => void check();
    function finish() {
      clearTimeout(timer);
      child.process.stdout?.off('data', onData);
      child.process.off('exit', onExit);
    }
    child.process.stdout?.on('data', onData);
    child.process.once('exit', onExit);
    check();
  });
}
