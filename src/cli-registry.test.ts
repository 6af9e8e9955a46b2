// Goal: the registry CLI imports, lists, diffs and syncs for real (child processes of the real CLI), a bad file
// fails with its line number and exit code 1, and sync downloads only from the URLs it is given (a loopback server).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { needsShared, sharedSources } from '../test/fixtures/registry/paths.js';
import { RegistryStore } from './registry/store/registry-store.js';
import { envNameOf, syncSources, syncUrls } from './registry/store/sync.js';

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
const fixture = fileURLToPath(
  new URL('../test/fixtures/registry/bundesbank-synthetic-latin1.txt', import.meta.url),
);
/** A real file of the wrong format: an OeNB layout handed to the Bundesbank importer. */
const wrongFormat = fileURLToPath(
  new URL('../test/fixtures/registry/oenb-synthetic.csv', import.meta.url),
);

function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', cli, ...args],
      { env: { ...process.env, ...env } },
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

describe('ibanqa registry import | sources | diff', () => {
  it('imports a file over the embedded default, lists sources, and rejects a malformed file with its line number', async () => {
    const dataDir = tempDir();
    const imported = await runCli([
      'registry',
      'import',
      '--source',
      'bundesbank-blz',
      '--file',
      fixture,
      '--snapshot-date',
      '2026-01-05',
      '--data-dir',
      dataDir,
      '--json',
    ]);
    assert.equal(imported.code, 0, imported.stderr);
    const summary = JSON.parse(imported.stdout);
    assert.equal(summary.row_count, 3);
    // The fixture supersedes the embedded Bundesbank table (a snapshot of the same source), so it has a predecessor.
    assert.notEqual(summary.previous_snapshot_id, null);
    const sources = JSON.parse(
      (await runCli(['registry', 'sources', '--data-dir', dataDir, '--json'])).stdout,
    );
    assert.deepEqual(sources.sources.map((s: { source_id: string }) => s.source_id).sort(), [
      'bankdata-germany',
      'bundesbank-blz',
      'iban-to-bic',
      'schwifty',
    ]);
    const bad = await runCli([
      'registry',
      'import',
      '--source',
      'bundesbank-blz',
      '--file',
      wrongFormat,
      '--data-dir',
      dataDir,
    ]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /line 1:/);
    const unchanged = JSON.parse(
      (await runCli(['registry', 'sources', '--data-dir', dataDir, '--json'])).stdout,
    );
    assert.deepEqual(
      unchanged.registry,
      sources.registry,
      'a failed import leaves the registry as it was',
    );
  });

  it(
    'diffs the current Bundesbank snapshot against its predecessor',
    { skip: needsShared },
    async () => {
      const dataDir = tempDir();
      for (const date of ['2025-06-09', '2025-09-08']) {
        // --no-embedded: the embedded Bundesbank table (2025-09-08) would outdate the June release.
        const result = await runCli([
          'registry',
          'import',
          '--source',
          'bundesbank-blz',
          '--file',
          join(sharedSources, `bundesbank-blz/${date}/bundesbank.txt`),
          '--snapshot-date',
          date,
          '--data-dir',
          dataDir,
          '--no-embedded',
        ]);
        assert.equal(result.code, 0, result.stderr);
      }
      const diff = JSON.parse(
        (
          await runCli([
            'registry',
            'diff',
            '--source',
            'bundesbank-blz',
            '--data-dir',
            dataDir,
            '--json',
          ])
        ).stdout,
      );
      assert.deepEqual([diff.added, diff.removed, diff.modified], [15, 84, 59]);
      const byDate = JSON.parse(
        (
          await runCli([
            'registry',
            'diff',
            '--source',
            'bundesbank-blz',
            '--from',
            '2025-06-09',
            '--to',
            '2025-09-08',
            '--data-dir',
            dataDir,
            '--json',
          ])
        ).stdout,
      );
      assert.deepEqual(byDate, diff);
      // The listing names bank codes (main records), not the Bundesbank's record numbers.
      const listed = await runCli([
        'registry',
        'diff',
        '--source',
        'bundesbank-blz',
        '--limit',
        '100',
        '--data-dir',
        dataDir,
      ]);
      assert.match(
        listed.stdout,
        /^~ 10050000 name: Landesbank Berlin - Berliner Sparkasse -> BSK 1818 - Berliner Sparkasse/m,
      );
      assert.match(listed.stdout, /^\+ 21050055 /m);
    },
  );
});

describe('ibanqa registry sync (loopback server only)', { skip: needsShared }, () => {
  let server: Server;
  let base: string;
  /** Which OeNB file the server hands out: switched between sync runs to publish a new release. */
  let oenbRelease = '2025-09-15';
  before(async () => {
    const files: Record<string, () => string> = {
      '/oenb/at.csv': () => `oenb-sepa-verzeichnis/${oenbRelease}/at.csv`,
      '/nbb/nbb.xlsx': () => 'nbb-bank-codes/2025-08-04/nbb.xlsx',
    };
    server = createServer((request, response) => {
      const file = files[request.url ?? ''];
      if (file === undefined) response.statusCode = 404;
      response.end(file === undefined ? 'not here' : readFileSync(join(sharedSources, file())));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('downloads and imports each source; a failing source does not stop the others; a new release makes events', async () => {
    const store = RegistryStore.openWriter(tempDir());
    const urls = new Map([
      ['oenb-sepa', `${base}/oenb/at.csv`],
      ['nbb-bank-codes', `${base}/nbb/nbb.xlsx`],
      ['six-bankenstamm', `${base}/missing.xls`],
    ]);
    const first = await syncSources(store, urls);
    assert.deepEqual(
      first.map((r) => [r.source_id, r.ok]),
      [
        ['oenb-sepa', true],
        ['nbb-bank-codes', true],
        ['six-bankenstamm', false],
      ],
    );
    assert.match(first[2]?.ok === false ? first[2].error : '', /HTTP 404/);
    oenbRelease = '2025-09-22';
    const second = await syncSources(store, new Map([['oenb-sepa', `${base}/oenb/at.csv`]]));
    assert.equal(second[0]?.ok && second[0].summary.changes.modified, 17);
    assert.equal(store.snapshotsOf('oenb-sepa')[1]?.file_name, 'at.csv');
    await store.close();
  });

  it('takes URLs from the environment and flags, and the CLI syncs from them', async () => {
    assert.equal(envNameOf('oenb-sepa'), 'IBANQA_SYNC_URL_OENB_SEPA');
    const urls = syncUrls(
      { IBANQA_SYNC_URL_OENB_SEPA: 'http://127.0.0.1:1/env.csv' },
      ['nbb-bank-codes=http://127.0.0.1:1/flag.xlsx'],
      ['oenb-sepa', 'nbb-bank-codes'],
    );
    assert.deepEqual(
      [...urls],
      [
        ['oenb-sepa', 'http://127.0.0.1:1/env.csv'],
        ['nbb-bank-codes', 'http://127.0.0.1:1/flag.xlsx'],
      ],
    );
    assert.throws(() => syncUrls({}, [], ['bundesbank-blz']), /set IBANQA_SYNC_URL_BUNDESBANK_BLZ/);
    assert.throws(() => syncUrls({}, ['nowhere']), /--url takes <source>=<url>/);
    const dataDir = tempDir();
    oenbRelease = '2025-09-15';
    const result = await runCli(
      ['registry', 'sync', '--source', 'oenb-sepa', '--data-dir', dataDir, '--json'],
      { IBANQA_SYNC_URL_OENB_SEPA: `${base}/oenb/at.csv` },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).summary.row_count, 871);
  });
});
