/**
 * One registry on every node: real service processes with their own data directories share one PostgreSQL
 * database. A registry import through node A's CLI (a real publisher file, the OeNB SEPA directory of 2025-09-22)
 * is served by node B within 10 s with the same version and fingerprint, and a node started afterwards builds the
 * same registry from the published snapshots.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot } from '../../bench/lib/child.js';
import { seedEmbeddedRegistry } from '../helpers/registry-template.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';
import { sharedPath } from '../helpers/shared.js';

const run = promisify(execFile);
const oenbFile = sharedPath('oenb-sepa-verzeichnis/2025-09-22/at.csv');
/** Registry sources README, OeNB 15.09 -> 22.09.2025: BLZ 36316's LEI after the Raiffeisen merger. */
const mergedLei = '5299007ST2V666DOLE22';
/** What the task promises: a publication is served by every node within 10 s. */
const convergeMs = 10_000;

interface Ready {
  readonly status: string;
  readonly registry: { readonly version: number; readonly fingerprint: string };
}

/** The `unlimited` demo key of the database: valid on every node. */
let unlimitedKey = '';

async function readyz(node: ServiceProcess): Promise<Ready> {
  const response = await fetch(node.base.replace('/api/v1', '/readyz'));
  return (await response.json()) as Ready;
}

async function lookupLei(node: ServiceProcess): Promise<any> {
  const response = await fetch(`${node.base}/bank-intelligence/lookup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': unlimitedKey },
    body: JSON.stringify({ value: mergedLei, type: 'lei' }),
  });
  assert.equal(response.status, 200);
  return response.json();
}

async function waitForVersion(
  node: ServiceProcess,
  version: number,
  deadline: number,
): Promise<Ready> {
  for (;;) {
    const ready = await readyz(node);
    if (ready.registry.version >= version || Date.now() > deadline) return ready;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('registry publication through PostgreSQL', () => {
  let database: ScratchDatabase;
  let seed: string;
  const nodes: ServiceProcess[] = [];
  const startNode = async () => {
    // Keys are shared state: the first node on the database creates (and prints) the demo keys, the others none.
    const node = await startServiceProcess({ IBANQA_DATABASE_URL: database.url }, seed, {
      demoKeys: false,
    });
    if (node.unlimitedKey !== '') unlimitedKey = node.unlimitedKey;
    nodes.push(node);
    return node;
  };

  before(async () => {
    database = await createScratchDatabase('registry_publication');
    // Every node starts from the same embedded default (built once, copied): as nodes of one release would.
    seed = mkdtempSync(join(tmpdir(), 'ibanqa-publication-seed-'));
    await seedEmbeddedRegistry(seed);
  });

  after(async () => {
    for (const node of nodes) await node.dispose();
    await database?.drop();
    if (seed !== undefined) rmSync(seed, { recursive: true, force: true });
  });

  test('an import through node A is served by node B within 10 s; a node started later builds the same registry', async (t) => {
    const [a, b] = [await startNode(), await startNode()];
    const before = await readyz(b);
    assert.deepEqual((await readyz(a)).registry, before.registry);
    assert.equal((await lookupLei(b)).results[0].match_status, 'no_match');

    const { stdout } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli.ts',
        'registry',
        'import',
        '--source',
        'oenb-sepa',
        '--file',
        oenbFile,
        '--data-dir',
        a.dataDir,
        '--database-url',
        database.url,
        '--json',
      ],
      { cwd: repoRoot },
    );
    const imported = Date.now();
    const summary = JSON.parse(stdout);
    assert.equal(summary.row_count, 871);
    assert.equal(summary.registry.version, before.registry.version + 1);
    assert.notEqual(summary.registry.fingerprint, before.registry.fingerprint);

    const onB = await waitForVersion(b, summary.registry.version, imported + convergeMs);
    const tookMs = Date.now() - imported;
    t.diagnostic(`node B served version ${onB.registry.version} ${tookMs} ms after the CLI exited`);
    assert.deepEqual(
      { status: onB.status, version: onB.registry.version, fingerprint: onB.registry.fingerprint },
      {
        status: 'ready',
        version: summary.registry.version,
        fingerprint: summary.registry.fingerprint,
      },
      `node B after ${tookMs} ms`,
    );
    const lookup = await lookupLei(b);
    assert.equal(lookup.registry.fingerprint, summary.registry.fingerprint);
    const found = lookup.results[0];
    assert.equal(found.match_status, 'matched');
    assert.ok(
      found.matches.some((m: any) => m.source_id === 'oenb-sepa' && m.record_key === '36316'),
    );
    assert.equal((await readyz(a)).registry.fingerprint, summary.registry.fingerprint);

    const c = await startNode();
    const onC = await readyz(c);
    assert.deepEqual(
      { version: onC.registry.version, fingerprint: onC.registry.fingerprint },
      { version: summary.registry.version, fingerprint: summary.registry.fingerprint },
    );
    assert.equal((await lookupLei(c)).results[0].match_status, 'matched');
  });
});
