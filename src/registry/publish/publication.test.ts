/**
 * Publication and replay against the machine's PostgreSQL (a scratch database per run), in one process: registries
 * in three data directories stand for three nodes. Real publisher files from ../shared/registry-sources.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { pino } from 'pino';
import {
  createScratchDatabase,
  type ScratchDatabase,
} from '../../../test/helpers/scratch-database.js';
import { sharedPath } from '../../../test/helpers/shared.js';
import { importPath } from '../store/import-file.js';
import { RegistryStore } from '../store/registry-store.js';
import { applyPublications } from './apply.js';
import { RegistryFollower } from './follower.js';
import { RegistryPublisher } from './publisher.js';
import { publishedWrites } from './writes.js';
import { migrateDatabase } from '../../postgres/migrate.js';

const oenb = (date: string) => sharedPath(`oenb-sepa-verzeichnis/${date}/at.csv`);
const nbb = (date: string) => sharedPath(`nbb-bank-codes/${date}/nbb.xlsx`);
const gleifDelta = sharedPath('gleif/20240505-0000-gleif-goldencopy-lei2-intra-day.json');

describe('registry publication and replay', () => {
  let database: ScratchDatabase;
  let client: pg.Client;
  const dirs: string[] = [];
  const stores: RegistryStore[] = [];
  const node = () => {
    const dir = mkdtempSync(join(tmpdir(), 'ibanqa-publication-'));
    dirs.push(dir);
    const store = RegistryStore.openWriter(dir);
    stores.push(store);
    return store;
  };

  before(async () => {
    database = await createScratchDatabase('publication_unit');
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await migrateDatabase(database.url);
  });

  after(async () => {
    await client?.end();
    for (const store of stores) await store.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await database?.drop();
  });

  test('another node replays every import with the same versions, fingerprints, snapshots and change events', async () => {
    const [first, second] = [node(), node()];
    const publisher = await RegistryPublisher.begin(database.url, first);
    importPath(first, 'oenb-sepa', oenb('2025-09-15'));
    const diff = importPath(first, 'oenb-sepa', oenb('2025-09-22'));
    assert.deepEqual(await publisher.finish(), [1, 2]);
    // Registry sources README: 17 changed bank-code rows between the two OeNB files.
    assert.equal(diff.changes.modified, 17);

    const outcome = await applyPublications(second, client);
    assert.deepEqual(outcome.applied, [1, 2]);
    assert.deepEqual(outcome.registry, first.identity());
    assert.deepEqual(second.events({ limit: 100 }), first.events({ limit: 100 }));
    assert.deepEqual(second.snapshotsOf('oenb-sepa'), first.snapshotsOf('oenb-sepa'));
    assert.deepEqual((await applyPublications(second, client)).applied, []);
  });

  test('the second node publishes a delta the first one takes; a node with imports of its own is refused', async () => {
    const [first, second] = [stores[0] as RegistryStore, stores[1] as RegistryStore];
    const publisher = await RegistryPublisher.begin(database.url, second);
    const delta = importPath(second, 'gleif-lei', gleifDelta, { delta: true });
    assert.deepEqual(await publisher.finish(), [3]);
    assert.equal(delta.row_count, 577);

    assert.deepEqual((await applyPublications(first, client)).applied, [3]);
    assert.deepEqual(first.identity(), second.identity());
    assert.equal(first.snapshot(delta.snapshot_id)?.mode, 'delta');

    const own = node();
    importPath(own, 'nbb-bank-codes', nbb('2025-08-04'));
    await assert.rejects(applyPublications(own, client), /is not the published one/);
    assert.equal(own.identity().version, 1);
    // --no-embedded builds such a registry from the start: refused before anything is imported or published.
    const settings = { databaseUrl: database.url, bare: true, note: () => undefined };
    await assert.rejects(
      publishedWrites(own, settings, () => 'written'),
      /--no-embedded/,
    );
  });

  test('a follower applies what is published, also after its connection was cut (the poll finds it)', async () => {
    const [publishing, following] = [stores[0] as RegistryStore, stores[1] as RegistryStore];
    const follower = new RegistryFollower({
      databaseUrl: database.url,
      localVersion: () => following.currentVersion(),
      apply: () => applyPublications(following, client),
      logger: pino({ level: 'silent' }),
    });
    const publish = async (date: string) => {
      const publisher = await RegistryPublisher.begin(database.url, publishing);
      importPath(publishing, 'nbb-bank-codes', nbb(date));
      return (await publisher.finish())[0];
    };
    try {
      assert.equal(await reaches(following, (await publish('2019-07-03')) ?? 0), true);
      // Every other session of the database ends: the follower's LISTEN connection among them.
      await client.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database.name],
      );
      assert.equal(await reaches(following, (await publish('2025-08-04')) ?? 0), true);
      assert.deepEqual(following.identity(), publishing.identity());
    } finally {
      await follower.close();
    }
  });
});

/** True once `store` holds `version`, false after 10 s (what a node is given to apply a publication). */
async function reaches(store: RegistryStore, version: number): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (store.currentVersion() < version) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
