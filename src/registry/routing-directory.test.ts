import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  parseDirectoryFilesSetting,
  readDirectoryFile,
  type DirectoryFile,
} from './routing-directory-loader.js';
import { sharedPath, skipWithoutShared as needsShared } from '../../test/helpers/shared.js';
import {
  createRoutingDirectory,
  emptyRoutingDirectory,
  routingTargetId,
  type RoutingDirectory,
} from './routing-directory.js';

const files = {
  fedach2016: { source: 'fedach', path: sharedPath('fedach/2016-02-03/FedACHdir.txt') },
  fedach2018: { source: 'fedach', path: sharedPath('fedach/2018-12-04/FedACHdir.txt') },
  fedwire2016: { source: 'fedwire', path: sharedPath('fedwire/2016-02-04/fpddir.txt') },
  fedwire2018: { source: 'fedwire', path: sharedPath('fedwire/2018-12-03/fpddir.txt') },
} as const satisfies Record<string, DirectoryFile>;

/** The published lines of a fixed-width file, keyed by routing number (positions 1-9). */
function linesByNumber(path: string): Map<string, string> {
  const lines = readFileSync(path, 'latin1')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
  return new Map(lines.map((line) => [line.slice(0, 9), line]));
}

function sha256Of(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function numbersOf(directory: RoutingDirectory, source: string): Set<string> {
  const all = directory.search('', Number.MAX_SAFE_INTEGER, 0).results;
  return new Set(
    all.filter((target) => target.source_id === source).map((target) => target.routing_number),
  );
}

describe('routing directory from the real FedACH and Fedwire releases', () => {
  // Parsing is the slow part; build each directory once (lazily, so a missing ../shared skips cleanly).
  let cached: { d2016: RoutingDirectory; d2018: RoutingDirectory } | undefined;
  const directories = () =>
    (cached ??= {
      d2016: createRoutingDirectory([
        readDirectoryFile(files.fedach2016),
        readDirectoryFile(files.fedwire2016),
      ]),
      d2018: createRoutingDirectory([
        readDirectoryFile(files.fedach2018),
        readDirectoryFile(files.fedwire2018),
      ]),
    });

  it(
    "keeps each file's SHA-256 and publication date; one target per published row",
    needsShared,
    () => {
      const { d2016, d2018 } = directories();
      assert.deepEqual(d2016.sources(), [
        {
          source_id: 'fedach',
          snapshot_date: '2016-02-03',
          source_sha256: sha256Of(files.fedach2016.path),
        },
        {
          source_id: 'fedwire',
          snapshot_date: '2016-02-04',
          source_sha256: sha256Of(files.fedwire2016.path),
        },
      ]);
      assert.deepEqual(
        d2018.sources().map((s) => s.snapshot_date),
        ['2018-12-04', '2018-12-03'],
      );
      // sha256 prefixes and row counts as listed in ../shared/registry-sources/README.md
      assert.ok(d2016.sources()[0]?.source_sha256.startsWith('063513425e222957'));
      assert.ok(d2018.sources()[1]?.source_sha256.startsWith('f897fdf95e9b1d95'));
      assert.equal(numbersOf(d2016, 'fedach').size, 19_248);
      assert.equal(numbersOf(d2018, 'fedach').size, 18_198);
      assert.equal(numbersOf(d2016, 'fedwire').size, 8_327);
      assert.equal(numbersOf(d2018, 'fedwire').size, 7_693);
      assert.equal(d2018.search('', 1, 0).total, 18_198 + 7_693);
    },
  );

  it('name, city, state and status are the published text of the row', needsShared, () => {
    const { d2018 } = directories();
    const fedach = linesByNumber(files.fedach2018.path);
    const fedwire = linesByNumber(files.fedwire2018.path);
    const page = d2018.search('', 400, 5_000).results;
    assert.equal(page.length, 400);
    for (const target of page) {
      const line = (target.source_id === 'fedach' ? fedach : fedwire).get(target.routing_number);
      assert.ok(line, target.routing_number);
      const cut = (from: number, width: number) =>
        line.slice(from - 1, from - 1 + width).trim() || null;
      const expected =
        target.source_id === 'fedach'
          ? { name: cut(36, 36), city: cut(108, 20), state: cut(128, 2), status: cut(149, 1) }
          : { name: cut(28, 36), city: cut(66, 25), state: cut(64, 2), status: cut(91, 1) };
      assert.deepEqual(
        { name: target.name, city: target.city, state: target.state, status: target.status },
        expected,
        target.routing_number,
      );
      assert.equal(
        target.target_id,
        routingTargetId(target.source_id, target.routing_number, target.source_sha256),
      );
    }
  });

  it(
    'FedACH 2016 -> 2018 by routing number: 104 added, 1,154 removed (README counts)',
    needsShared,
    () => {
      const { d2016, d2018 } = directories();
      const before = numbersOf(d2016, 'fedach');
      const after = numbersOf(d2018, 'fedach');
      assert.equal([...after].filter((n) => !before.has(n)).length, 104);
      assert.equal([...before].filter((n) => !after.has(n)).length, 1_154);
    },
  );

  it(
    'a routing number in both releases has a new target id in the new release (the file changed)',
    needsShared,
    () => {
      const { d2016, d2018 } = directories();
      const [old] = d2016.byRoutingNumber('011000015');
      const [current] = d2018.byRoutingNumber('011000015');
      assert.ok(old && current);
      assert.notEqual(old.target_id, current.target_id);
      assert.equal(d2018.targetById(old.target_id), undefined);
      assert.deepEqual(d2018.targetById(current.target_id), current);
    },
  );

  it(
    'byRoutingNumber lists FedACH before Fedwire; search pages are stable and complete',
    needsShared,
    () => {
      const { d2018 } = directories();
      const both = d2018.byRoutingNumber('011000015').map((o) => o.source_id);
      assert.deepEqual(both, ['fedach', 'fedwire']);
      const query = 'boston';
      const all = d2018.search(query, 10_000, 0);
      assert.ok(all.total > 25 && all.total === all.results.length);
      const paged = [...d2018.search(query, 25, 0).results, ...d2018.search(query, 25, 25).results];
      assert.deepEqual(paged, all.results.slice(0, 50));
      assert.ok(
        all.results.every((t) => `${t.name} ${t.city} ${t.state}`.toUpperCase().includes('BOSTON')),
      );
      const byPrefix = d2018.search('0110000', 100, 0).results;
      assert.ok(
        byPrefix.length > 0 && byPrefix.every((t) => t.routing_number.startsWith('0110000')),
      );
      assert.deepEqual(d2018.search('zzzz-no-such-bank', 10, 0), { results: [], total: 0 });
    },
  );
});

describe('routing directory basics', () => {
  it('the empty directory has no sources, targets or observations', () => {
    assert.deepEqual(emptyRoutingDirectory.sources(), []);
    assert.deepEqual(emptyRoutingDirectory.byRoutingNumber('011000015'), []);
    assert.deepEqual(emptyRoutingDirectory.search('', 10, 0), { results: [], total: 0 });
  });

  it('target ids are stable and depend on source, number and file hash', () => {
    const sha = 'a'.repeat(64);
    assert.equal(
      routingTargetId('fedach', '011000015', sha),
      routingTargetId('fedach', '011000015', sha),
    );
    assert.match(routingTargetId('fedach', '011000015', sha), /^rt_[0-9a-f]{16}$/);
    const others = [
      routingTargetId('fedwire', '011000015', sha),
      routingTargetId('fedach', '011000028', sha),
      routingTargetId('fedach', '011000015', 'b'.repeat(64)),
    ];
    for (const other of others) assert.notEqual(other, routingTargetId('fedach', '011000015', sha));
  });

  it('IBANQA_US_DIRECTORY_FILES: source:path pairs, one per source, clear errors', () => {
    assert.deepEqual(parseDirectoryFilesSetting(''), []);
    assert.deepEqual(
      parseDirectoryFilesSetting(' fedach:/a/FedACHdir.txt , fedwire:/b/fpd:dir.txt '),
      [
        { source: 'fedach', path: '/a/FedACHdir.txt' },
        { source: 'fedwire', path: '/b/fpd:dir.txt' },
      ],
    );
    assert.throws(() => parseDirectoryFilesSetting('bundesbank:/x'), /expected "fedach:<path>"/);
    assert.throws(() => parseDirectoryFilesSetting('fedach:'), /expected/);
    assert.throws(() => parseDirectoryFilesSetting('fedach:/a,fedach:/b'), /one file per source/);
  });
});
