// Goal: the operator CLI answers --version and has help for every command, `keys list` shows balances, output
// cut short by the reader (`| head`) ends quietly, and the prebuilt bundle runs without tsx.
// Method: child processes of the real CLI (through the `ibanqa` bin, src/cli-entry.js) on temp data directories.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { AccountStore } from './accounts/account-store.js';
import { Meter } from './accounts/meter.js';

const entry = fileURLToPath(new URL('./cli-entry.js', import.meta.url));
const buildScript = fileURLToPath(new URL('../scripts/build-cli.mjs', import.meta.url));
const bundle = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

function run(
  file: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [file, ...args],
      { env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout, stderr) => {
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
          stdout,
          stderr,
        });
      },
    );
  });
}

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-cli-'));
  dirs.push(dir);
  return dir;
}
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The command names listed under "Commands:" in a help text, each with whether it has a description. */
function commandsOf(help: string): { name: string; described: boolean }[] {
  const section = help.split('Commands:\n')[1] ?? '';
  return section
    .split('\n')
    .filter((line) => /^ {2}\S/.test(line))
    .map((line) => ({
      name: line.trim().split(/\s+/)[0] as string,
      described: /^ {2}\S.*?\s{2,}\S/.test(line),
    }));
}

describe('ibanqa CLI', () => {
  it('--version prints the package version', async () => {
    const reply = await run(entry, ['--version']);
    assert.equal(reply.code, 0, reply.stderr);
    assert.equal(reply.stdout.trim(), manifest.version);
  });

  it('every command and subcommand has a help text', async () => {
    const top = commandsOf((await run(entry, ['--help'])).stdout);
    assert.deepEqual(top.map((c) => c.name).sort(), [
      'db',
      'help',
      'keys',
      'manifest',
      'mcp',
      'registry',
      'serve',
    ]);
    for (const group of ['keys', 'registry']) {
      const sub = commandsOf((await run(entry, [group, '--help'])).stdout);
      assert.ok(sub.length >= 3, group);
      for (const command of [...top, ...sub])
        assert.ok(command.described, `${group}: ${command.name} has no description`);
      for (const command of sub.filter((c) => c.name !== 'help')) {
        const help = await run(entry, [group, command.name, '--help']);
        assert.equal(help.code, 0, help.stderr);
        const description = help.stdout.split('\n\n')[1] ?? '';
        assert.ok(
          description.trim().length > 10 && !description.startsWith('Options:'),
          `${group} ${command.name} --help describes the command`,
        );
      }
    }
  });

  it('keys list shows each key with its balances', async () => {
    const dataDir = tempDir();
    const store = AccountStore.open(dataDir);
    const created = store.createKey('pro', new Date(), 'ci');
    const meter = Meter.open(store);
    const reserved = meter.reserve(created, { api_calls: 7, bic_reveals: 2 }, new Date());
    assert.ok(reserved.ok);
    await meter.commit(reserved.reservation);
    await store.close();
    const listed = await run(entry, ['keys', 'list', '--json', '--data-dir', dataDir]);
    assert.equal(listed.code, 0, listed.stderr);
    const [row] = JSON.parse(listed.stdout);
    // Pro (spec plan table): 10,000 API calls and 2,000 BIC reveals per calendar month.
    assert.equal(row.id, created.id);
    assert.deepEqual(
      {
        allowance: row.credits.api_calls.allowance,
        used: row.credits.api_calls.used,
        remaining: row.credits.api_calls.remaining,
      },
      { allowance: 10_000, used: 7, remaining: 9_993 },
    );
    assert.equal(row.credits.bic_reveals.used, 2);
    const now = new Date();
    assert.equal(
      row.credits.api_calls.period_end,
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
    );
    const text = await run(entry, ['keys', 'list', '--data-dir', dataDir]);
    assert.match(text.stdout, /api_calls 7\/10000/);
    assert.match(text.stdout, /bic_reveals 2\/2000/);
  });

  it('output cut short by its reader (| head) ends quietly with exit code 0', async () => {
    const dataDir = tempDir();
    const store = AccountStore.open(dataDir);
    // Far more output than a pipe buffers (64 KiB), so the CLI is still writing when the reader leaves.
    for (let index = 0; index < 1_500; index++)
      store.createKey('free', new Date(), `label ${index}`);
    await store.close();
    const child = spawn(process.execPath, [entry, 'keys', 'list', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) =>
      child.on('close', (exitCode) => resolve(exitCode)),
    );
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });

  it('the bundle built on install runs without tsx', async () => {
    const built = await run(buildScript, []);
    assert.equal(built.code, 0, built.stderr);
    const version = await run(bundle, ['--version']);
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout.trim(), manifest.version);
    const dataDir = tempDir();
    const listed = await run(bundle, ['keys', 'list', '--json', '--data-dir', dataDir]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(JSON.parse(listed.stdout), []);
  });
});
