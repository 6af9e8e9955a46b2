/**
 * REST POST /validate throughput of two commits, side by side in one run: each commit's own service from a
 * temporary git worktree (this checkout's node_modules linked in), the same generated 100-IBAN bodies and
 * `unlimited` key, wrk -t1 -c32, the two alternated so the shared VM's noise falls on both alike.
 * Writes the `commit-ab` section of bench/RESULTS.md.
 *
 *   flock /tmp/ibanqa-machine.lock node --import tsx bench/commit-ab.ts <before-rev> <after-rev> [label]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './lib/child.js';
import { runWrk } from './lib/http-load.js';
import { wrkPath } from './lib/machine.js';
import { freePort, procCpuSeconds } from './lib/proc.js';
import { writeSection } from './lib/sections.js';
import { startIbanqa } from './lib/ibanqa-process.js';
import { generatedBodies } from './rest-load.js';

/** Alternations of the two commits; AB_ROUNDS raises it when the machine is noisy. */
const rounds = Number(process.env.AB_ROUNDS ?? 3);
const warmupSeconds = 3;
const seconds = 8;
const connections = 32;
const startMs = 120_000;

interface Served {
  readonly process: ChildProcess;
  readonly dataDir: string;
  readonly port: number;
  readonly key: string;
}

function git(...args: string[]): string {
  const result = spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

function worktreeOf(rev: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-ab-'));
  git('worktree', 'add', '--detach', dir, rev);
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

async function serve(dir: string): Promise<Served> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-ab-data-'));
  const env = {
    ...process.env,
    IBANQA_DATA_DIR: dataDir,
    IBANQA_HOST: '127.0.0.1',
    IBANQA_PORT: String(port),
    IBANQA_GRPC_PORT: String(await freePort()),
    IBANQA_LOG_LEVEL: 'warn',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: dir, env });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const started = Date.now();
  while (!/^ibanqa: REST /m.test(out)) {
    if (Date.now() - started > startMs || child.exitCode !== null)
      throw new Error(`no start in ${dir}:\n${out}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const key = /^\s+unlimited\s+(iq_\S+)/m.exec(out)?.[1];
  if (key === undefined) throw new Error(`no unlimited key in ${dir}:\n${out}`);
  return { process: child, dataDir, port, key };
}

async function measure(served: Served, bodies: readonly string[]) {
  const target = {
    port: served.port,
    path: '/api/v1/validate',
    headers: { 'content-type': 'application/json', 'x-api-key': served.key },
    bodies,
  };
  const wrk = wrkPath();
  if (wrk === null) throw new Error('wrk is not installed');
  await runWrk(wrk, target, connections, warmupSeconds);
  const pid = served.process.pid as number;
  const cpuBefore = procCpuSeconds(pid);
  const load = await runWrk(wrk, target, connections, seconds);
  const cpu = procCpuSeconds(pid) - cpuBefore;
  return {
    reqPerSec: load.reqPerSec,
    p99Ms: load.p99Ms,
    cpuUsPerRequest: (cpu / load.requests) * 1e6,
  };
}

async function main(): Promise<void> {
  const [before, after, label = 'before -> after'] = process.argv.slice(2);
  if (before === undefined || after === undefined)
    throw new Error('usage: commit-ab.ts <before> <after> [label]');
  const revs = [git('rev-parse', '--short', before), git('rev-parse', '--short', after)];
  const dirs = revs.map(worktreeOf);
  const load = loadavg();
  // Bodies from this checkout's generator, so both commits validate the same IBANs.
  const generator = await startIbanqa();
  const bodies = await generatedBodies(generator).finally(() => generator.stop());
  const lines: string[] = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const [index, dir] of dirs.entries()) {
        const served = await serve(dir);
        try {
          const figures = await measure(served, bodies);
          lines.push(
            `| ${round} | ${revs[index]} | ${Math.round(figures.reqPerSec).toLocaleString('en-US')} | ${figures.p99Ms.toFixed(1)} | ${Math.round(figures.cpuUsPerRequest)} |`,
          );
          console.log(lines.at(-1));
        } finally {
          const exited = new Promise((resolve) => served.process.once('exit', resolve));
          served.process.kill('SIGTERM');
          await exited;
          rmSync(served.dataDir, { recursive: true, force: true });
        }
      }
    }
  } finally {
    for (const dir of dirs) {
      git('worktree', 'remove', '--force', dir);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  writeSection(
    join(repoRoot, 'bench/RESULTS.md'),
    'commit-ab',
    [
      `## Two commits side by side: ${label} (bench/commit-ab.ts)`,
      '',
      `${new Date().toISOString()}, load average ${load.map((value) => value.toFixed(2)).join(' / ')} at the start. POST /validate,`,
      `100-IBAN generated bodies, \`unlimited\` key (metering on), wrk -t1 -c${connections}, ${seconds} s after a ${warmupSeconds} s warm-up, each`,
      "commit's own service started fresh per round, the two alternated. Server CPU counts the whole service process.",
      '',
      '| round | commit | req/s | p99 ms | server CPU µs/request |',
      '| --- | --- | --- | --- | --- |',
      ...lines,
    ].join('\n'),
  );
}

await main();
