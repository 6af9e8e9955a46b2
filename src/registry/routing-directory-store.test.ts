import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseFedach } from './importers/fedach.js';
import { parseFedwire } from './importers/fedwire.js';
import { readDirectoryFile } from './routing-directory-loader.js';
import { RegistryRoutingDirectory } from './routing-directory-store.js';
import { RegistryStore } from './store/registry-store.js';
import {
  sharedPath as shared,
  skipWithoutShared as needsShared,
} from '../../test/helpers/shared.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Imports a file the way `ibanqa registry import` does: parsed, with the SHA-256 and name of its bytes. */
function importFile(store: RegistryStore, source: 'fedach' | 'fedwire', relative: string): string {
  const bytes = readFileSync(shared(relative));
  const sha = createHash('sha256').update(bytes).digest('hex');
  const parsed = source === 'fedach' ? parseFedach(bytes) : parseFedwire(bytes);
  store.import(parsed, { fileSha256: sha, fileName: relative.split('/').at(-1) ?? null });
  return sha;
}

describe('US routing directory over the LMDB registry', () => {
  it(
    'imported FedACH/Fedwire snapshots feed targets with their sha256 and dates; a new import replaces them',
    needsShared,
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-rtreg-'));
      dirs.push(dataDir);
      const store = RegistryStore.openWriter(dataDir);
      try {
        const empty = new RegistryRoutingDirectory(store);
        assert.deepEqual(empty.sources(), []);

        const ach2016 = importFile(store, 'fedach', 'fedach/2016-02-03/FedACHdir.txt');
        const wire2016 = importFile(store, 'fedwire', 'fedwire/2016-02-04/fpddir.txt');
        const directory = new RegistryRoutingDirectory(store);
        assert.deepEqual(directory.sources(), [
          { source_id: 'fedach', snapshot_date: '2016-02-03', source_sha256: ach2016 },
          { source_id: 'fedwire', snapshot_date: '2016-02-04', source_sha256: wire2016 },
        ]);
        assert.equal(directory.search('', 1, 0).total, 19_248 + 8_327);
        const [old] = directory.byRoutingNumber('011000015');
        assert.equal(old?.source_sha256, ach2016);
        assert.equal(old?.source_date, '2016-02-03');

        // This process imports: the directory sees it on the next call (onChange), no restart.
        const ach2018 = importFile(store, 'fedach', 'fedach/2018-12-04/FedACHdir.txt');
        assert.deepEqual(
          directory.sources().map((s) => [s.source_id, s.snapshot_date, s.source_sha256]),
          [
            ['fedach', '2018-12-04', ach2018],
            ['fedwire', '2016-02-04', wire2016],
          ],
        );
        assert.equal(directory.search('', 1, 0).total, 18_198 + 8_327);
        assert.equal(
          directory.targetById(old!.target_id),
          undefined,
          'the 2016 target is gone with its file',
        );
        assert.equal(
          empty.sources().length,
          2,
          'a directory built before the first import catches up too',
        );
      } finally {
        await store.close();
      }
    },
  );

  it(
    'files named in IBANQA_US_DIRECTORY_FILES win over the registry for their source',
    needsShared,
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-rtreg-'));
      dirs.push(dataDir);
      const store = RegistryStore.openWriter(dataDir);
      try {
        importFile(store, 'fedach', 'fedach/2016-02-03/FedACHdir.txt');
        const wire2016 = importFile(store, 'fedwire', 'fedwire/2016-02-04/fpddir.txt');
        const pinned = readDirectoryFile({
          source: 'fedach',
          path: shared('fedach/2018-12-04/FedACHdir.txt'),
        });
        const directory = new RegistryRoutingDirectory(store, [pinned]);
        assert.deepEqual(
          directory.sources().map((s) => [s.source_id, s.source_sha256]),
          [
            ['fedach', pinned.sha256],
            ['fedwire', wire2016],
          ],
        );
      } finally {
        await store.close();
      }
    },
  );
});
