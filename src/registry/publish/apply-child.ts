/** The service's side of apply-process.ts: one child process per apply, settled when it exits. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { limits } from '../../limits.js';
import type { ApplyOutcome } from './apply.js';

const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const entry = fileURLToPath(new URL(`./apply-process${extension}`, import.meta.url));
/** Compiled JavaScript runs as it is; the TypeScript sources run through tsx, as `npm start` runs the service. */
const nodeArgs = extension === '.ts' ? ['--import', 'tsx', entry] : [entry];

/**
 * `signal` ends the child (a service stopping): its import is one LMDB transaction, so the registry stays as it
 * was, and the next start or poll applies the publication again.
 */
export function applyInChild(
  dataDir: string,
  databaseUrl: string,
  signal?: AbortSignal,
): Promise<ApplyOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, dataDir], {
      env: { ...process.env, IBANQA_DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(signal === undefined ? {} : { signal }),
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const timer = setTimeout(
      () => child.kill('SIGKILL'),
      limits.registry.publicationApplyTimeoutMs,
    );
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(JSON.parse(out) as ApplyOutcome);
      else
        reject(
          new Error(
            `applying published registry snapshots failed (${signal ?? `exit ${code}`}): ${err.trim()}`,
          ),
        );
    });
  });
}
