// Goal: the service reads the registry version once per event-loop turn, and a request in a later turn than an
// import by another process is answered from that import (its version, and the directory's banks). Method: a real LMDB registry written by a child process (the
// importer's writer, as `ibanqa registry import` beside a running service), read here through the service's
// read-only handle; the second import runs synchronously inside one turn (spawnSync), so that turn's later reads
// and the next turn's read can be told apart.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serialize } from 'node:v8';
import { after, describe, it } from 'node:test';
import { readFixture } from '../../test/fixtures/registry/paths.js';
import type { ImportRequest } from '../../test/helpers/registry-import.js';
import { importIntoRegistry } from '../../test/helpers/registry-import.js';
import { LmdbDirectory } from '../registry/lmdb-directory.js';
import { RegistryStore } from '../registry/store/registry-store.js';
import { TurnVersion } from './registry-version.js';

const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-turn-version-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

const child = fileURLToPath(
  new URL('../../test/helpers/registry-import-child.ts', import.meta.url),
);

function blzImport(snapshotDate: string, name: string): ImportRequest['imports'][number] {
  const file = Buffer.from(readFixture('bundesbank-synthetic-latin1.txt'));
  const renamed = file
    .toString('latin1')
    .replace('999999011Synthetische Testbank Köln', `999999011${name}`);
  return {
    file: {
      sourceId: 'bundesbank-blz',
      bytes: Buffer.from(renamed, 'latin1'),
      fileName: 'bundesbank-synthetic.txt',
      snapshotDate,
    },
  };
}

/** The import, done before this function returns: nothing else runs on this thread meanwhile. */
function importNow(imports: ImportRequest['imports']): void {
  const done = spawnSync(process.execPath, ['--import', 'tsx', child], {
    input: serialize({ dataDir, imports } satisfies ImportRequest),
  });
  assert.equal(done.status, 0, done.stderr.toString('utf8'));
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the registry version of a request', () => {
  it('is read once per turn; the next turn sees an import another process made', async () => {
    await importIntoRegistry(dataDir, [blzImport('2026-01-01', 'Synthetische Testbank Köln')]);
    const reader = RegistryStore.openReader(dataDir);
    try {
      const directory = new LmdbDirectory(reader);
      const turnVersion = new TurnVersion(directory);
      const first = turnVersion.read();
      assert.equal(first, reader.currentVersion());
      assert.equal(directory.bankOf('DE', '99999901')?.name, 'Synthetische Testbank Köln');

      importNow([blzImport('2026-03-01', 'Synthetische Testbank Bonn')]);
      const imported = reader.currentVersion();
      assert.ok(imported > first, `version ${imported} after the import, ${first} before`);
      // Same turn: the read made before the import still stands.
      assert.equal(turnVersion.read(), first);

      await nextTurn();
      assert.equal(turnVersion.read(), imported);
      assert.equal(directory.bankOf('DE', '99999901')?.name, 'Synthetische Testbank Bonn');
    } finally {
      await reader.close();
    }
  });

  it('is 0 without a bank directory (a service without the registry)', () => {
    assert.equal(new TurnVersion(undefined).read(), 0);
  });
});
