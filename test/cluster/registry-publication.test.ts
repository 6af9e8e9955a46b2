/**
 * One registry on every node: real service processes with their own data directories share one PostgreSQL
 * database. A registry import through node A's CLI (a real publisher file, the OeNB SEPA directory of 2025-09-22)
 * is served by node B within 10 s with the same version and fingerprint, and a node started afterwards builds the
 * same registry from the published snapshots. (three-nodes.test.ts checks the same import on three running nodes.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { seedEmbeddedRegistry } from '../helpers/registry-template.js';
import {
  assertServes,
  convergeMs,
  importThroughCli,
  lookupLei,
  oenbRows,
  readyz,
  waitForVersion,
} from '../helpers/registry-publication.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';

/** The `unlimited` demo key of the database: valid on every node. */
let unlimitedKey = '';

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
    // Both at once, as nodes of one deployment start: one of them creates the database's demo keys, either may.
    const [a, b] = await Promise.all([startNode(), startNode()]);
    assert.equal(
      [a, b].filter((node) => node.unlimitedKey !== '').length,
      1,
      'one of the two starts created the demo keys',
    );
    const before = await readyz(b);
    assert.deepEqual((await readyz(a)).registry, before.registry);
    assert.equal((await lookupLei(b, unlimitedKey)).results[0].match_status, 'no_match');

    const summary = await importThroughCli(a, database.url);
    const imported = Date.now();
    assert.equal(summary.row_count, oenbRows);
    assert.equal(summary.registry.version, before.registry.version + 1);
    assert.notEqual(summary.registry.fingerprint, before.registry.fingerprint);

    const onB = await waitForVersion(b, summary.registry.version, imported + convergeMs);
    const tookMs = Date.now() - imported;
    t.diagnostic(`node B served version ${onB.registry.version} ${tookMs} ms after the CLI exited`);
    await assertServes(b, unlimitedKey, summary);
    assert.equal((await readyz(a)).registry.fingerprint, summary.registry.fingerprint);

    const c = await startNode();
    await assertServes(c, unlimitedKey, summary);
  });
});
