// Goal: the README's Quickstart commands work as written. Method: its code blocks are read from README.md (not
// copied here), `npm start` runs with the ports and data directory set the way the Quickstart says to set them,
// each "Try it" curl line runs in bash with only the port and the printed pro key put in, and the Bundesbank
// import line runs with only the file name replaced by the real publisher file of that release (../shared).
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { repoRoot } from '../bench/lib/child.js';
import { freePort } from '../bench/lib/proc.js';
import { processStartTimeoutMs } from './helpers/service-process.js';
import { registrySources } from './helpers/shared.js';

const run = promisify(execFile);
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

/** The ```sh blocks of the README section that starts with `heading`, up to the next heading. */
function shellBlocks(heading: string): string[] {
  const start = readme.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `README has no "${heading}" section`);
  const rest = readme.slice(start + heading.length + 2);
  const section = rest.slice(0, rest.search(/\n#{2,3} /));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

/** A block's commands, one per line, backslash continuations joined. */
function commands(block: string): string[] {
  return block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

let dataDir: string;
let httpPort: number;
let service: ChildProcess | undefined;
let output = '';

before(async () => {
  const [start] = commands(shellBlocks('## Quickstart')[0] ?? '');
  assert.equal(start, 'npm install && npm start');
  dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-readme-'));
  [httpPort] = [await freePort()];
  const env = {
    ...process.env,
    IBANQA_PORT: String(httpPort),
    IBANQA_GRPC_PORT: String(await freePort()),
    IBANQA_DATA_DIR: dataDir,
  };
  // `npm install` is what the test run itself stands on; `npm start` is run as written.
  // Its own process group, so the stop below reaches npm and the node process it started.
  const child = spawn('npm', ['start'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  service = child;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start printed no address:\n${output}`)),
      processStartTimeoutMs,
    );
    child.stdout.on('data', () => {
      if (!/^ibanqa: REST /m.test(output)) return;
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
});

after(async () => {
  if (service?.pid !== undefined && service.exitCode === null) {
    const exited = new Promise((resolve) => service?.once('exit', resolve));
    process.kill(-service.pid, 'SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

async function bash(command: string): Promise<string> {
  const { stdout } = await run('bash', ['-c', command], {
    cwd: repoRoot,
    env: { ...process.env, IBANQA_DATA_DIR: dataDir },
  });
  return stdout;
}

test('the "Try it" curl lines answer as the README says', async () => {
  const proKey = /^\s+pro\s+(iq_\S+)/m.exec(output)?.[1];
  assert.ok(proKey !== undefined, `no pro demo key in:\n${output}`);
  const lines = commands(shellBlocks('### Try it')[0] ?? '');
  assert.equal(lines.length, 3);
  const answers = [];
  for (const line of lines) {
    assert.match(line, /^curl -s localhost:8080\//);
    const ready = line
      .replaceAll('localhost:8080', `localhost:${httpPort}`)
      .replaceAll('<pro key>', proKey);
    answers.push(JSON.parse(await bash(ready)) as any);
  }
  const [generated, validated, usage] = answers;
  // Both answers are arrays of rows (the spec's shape).
  assert.equal(generated.length, 3, JSON.stringify(generated));
  for (const row of generated) {
    assert.ok(row.iban.startsWith('DE') && typeof row.bank_name === 'string', JSON.stringify(row));
  }
  assert.equal(validated[0].valid, true, JSON.stringify(validated));
  assert.ok(
    usage !== null && typeof usage === 'object' && !('error' in usage),
    JSON.stringify(usage),
  );
});

test('the Bundesbank import line imports the publisher file of that release', async () => {
  const lines = commands(shellBlocks('### Current Bundesbank data')[0] ?? '');
  const importLine = lines.find((line) => line.startsWith('npx ibanqa registry import'));
  assert.ok(importLine !== undefined);
  const date = /--snapshot-date (\S+)/.exec(importLine)?.[1];
  const file = join(registrySources, 'bundesbank-blz', date ?? '', 'bundesbank.txt');
  const imported = await bash(importLine.replace('blz-aktuell-txt-data.txt', file));
  assert.match(imported, /bundesbank-blz/);
  const sourcesLine = lines.find((line) => line.startsWith('npx ibanqa registry sources'));
  assert.ok(sourcesLine !== undefined);
  const sources = await bash(sourcesLine);
  assert.match(sources, new RegExp(`bundesbank-blz.*${date}`));
});
