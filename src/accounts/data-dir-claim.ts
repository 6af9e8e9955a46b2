import { createHash } from 'node:crypto';
import { realpathSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';

/**
 * One service process per data directory. Two processes serving one directory (a second `npm start` on other
 * ports, `ibanqa mcp` beside a running `serve`) would each keep the key's reservations in their own memory and
 * spend the same credits twice; so the service claims the directory before it opens anything in it.
 *
 * The claim is a listening Unix socket named after the directory's real path: binding is atomic, and the kernel
 * drops the socket when the process ends, kill -9 included, so there is no stale claim to guess about (a pid or
 * lock file needs one, and proper-lockfile's mtime heartbeat can be missed by an event loop busy for seconds).
 * On Linux the name is in the abstract namespace (no file; scoped to the network namespace, so processes in
 * different network namespaces must not share a directory); elsewhere it is a socket file in the directory.
 * The holder answers a connection with its pid and command line, which the refusal names.
 */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: string,
  ) {
    super(
      `data directory ${dataDir} is already served by ${holder}; stop it, or give this process its own directory (IBANQA_DATA_DIR / --data-dir)`,
    );
    this.name = 'DataDirInUseError';
  }
}

export interface DataDirClaim {
  release(): Promise<void>;
}

/** How long a refused start waits for the holder to say who it is before naming it "another process". */
const holderAnswerTimeoutMs = 2_000;

function claimAddress(dataDir: string): string {
  const real = realpathSync(dataDir);
  if (process.platform !== 'linux') return join(real, 'service.sock');
  const digest = createHash('sha256').update(real).digest('hex').slice(0, 32);
  return `\0ibanqa-data-dir-${digest}`;
}

function holderLine(): string {
  return `${JSON.stringify({ pid: process.pid, command: process.argv.join(' ') })}\n`;
}

function listenOn(address: string): Promise<Server | NodeJS.ErrnoException> {
  const server = createServer((socket) => socket.end(holderLine()));
  return new Promise((resolve) => {
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error));
    server.listen(address, () => {
      server.unref(); // the claim never keeps a finished process alive
      resolve(server);
    });
  });
}

/** What the holder says of itself; undefined when nobody answers (a socket file left by a dead process). */
function askHolder(address: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(address);
    socket.setTimeout(holderAnswerTimeoutMs, () => socket.destroy());
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.once('error', () => resolve(undefined));
    socket.once('close', () => resolve(text === '' ? undefined : describe(text)));
  });
}

function describe(line: string): string {
  try {
    const { pid, command } = JSON.parse(line) as { pid?: unknown; command?: unknown };
    return typeof pid === 'number'
      ? `pid ${pid}${typeof command === 'string' && command !== '' ? ` (${command})` : ''}`
      : 'another process';
  } catch {
    return 'another process';
  }
}

/** Claims the directory for this process, or throws DataDirInUseError naming the process that holds it. */
export async function claimDataDir(dataDir: string): Promise<DataDirClaim> {
  const address = claimAddress(dataDir);
  let outcome = await listenOn(address);
  if (!(outcome instanceof Error)) return serverClaim(outcome);
  if (outcome.code !== 'EADDRINUSE') throw outcome;
  const holder = await askHolder(address);
  if (holder !== undefined || address.startsWith('\0'))
    throw new DataDirInUseError(dataDir, holder ?? 'another process');
  rmSync(address, { force: true }); // a socket file left by a dead process
  outcome = await listenOn(address);
  if (outcome instanceof Error) throw new DataDirInUseError(dataDir, 'another process');
  return serverClaim(outcome);
}

function serverClaim(server: Server): DataDirClaim {
  return {
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
