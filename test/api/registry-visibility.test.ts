// One visibility rule for every answer that carries bank data: what /bank-intelligence/record shows a free
// key as LOCKED, watch changes and migration fixtures do not show it either; a paid key sees it all.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readFixture } from '../fixtures/registry/paths.js';
import { importIntoRegistry } from '../helpers/registry-import.js';
import { call, startTestService, type TestService } from '../helpers/service.js';

let service: TestService;
const oldName = 'Synthetische Testbank Köln';
const newName = 'Synthetische Testbank Bonn';

before(async () => {
  service = await startTestService();
  const file = readFixture('bundesbank-synthetic-latin1.txt');
  const renamed = Buffer.from(
    Buffer.from(file).toString('latin1').replace(`999999011${oldName}`, `999999011${newName}`),
    'latin1',
  );
  await importIntoRegistry(service.dataDir, [
    {
      file: {
        sourceId: 'bundesbank-blz',
        bytes: file,
        fileName: 'bundesbank-synthetic.txt',
        snapshotDate: '2026-01-01',
      },
    },
    {
      file: {
        sourceId: 'bundesbank-blz',
        bytes: renamed,
        fileName: 'bundesbank-synthetic.txt',
        snapshotDate: '2026-03-01',
      },
    },
  ]);
});
after(() => service.dispose());

async function watchedRecord(
  key: string,
): Promise<{ watchId: string; recordId: number; bic: string }> {
  const lookup = await call(service.base, '/bank-intelligence/lookup', {
    key: service.keys.business,
    body: { value: 'SYNTDEK1XXX', type: 'bic' },
  });
  assert.equal(lookup.status, 200, lookup.text);
  const match = lookup.body.results[0].matches.find(
    (candidate: { legal_name: string }) => candidate.legal_name === newName,
  );
  assert.ok(match, lookup.text);
  const created = await call(service.base, '/registry/watchlists', {
    key,
    body: { source_id: match.source_id, record_key: match.record_key },
  });
  assert.equal(created.status, 201, created.text);
  return { watchId: created.body.watch.watch_id, recordId: match.record_id, bic: match.bic };
}

test('a free key sees no name or BIC through record, watch changes or migration fixture; a paid key sees them', async () => {
  for (const [plan, key] of [
    ['free', service.keys.free],
    ['pro', service.keys.pro],
  ] as const) {
    const { watchId, recordId, bic } = await watchedRecord(key);
    const answers = [
      await call(service.base, `/bank-intelligence/record/${recordId}`, { key }),
      await call(service.base, `/registry/watchlists/${watchId}/changes`, { key }),
      await call(service.base, `/registry/watchlists/${watchId}/migration-fixture`, { key }),
    ];
    for (const answer of answers) {
      assert.equal(answer.status, 200, answer.text);
      const shows = [oldName, newName, bic].filter(
        (value) =>
          answer.text.includes(value) || answer.text.includes(JSON.stringify(value).slice(1, -1)),
      );
      if (plan === 'free') {
        assert.deepEqual(
          shows,
          [],
          `free key sees ${shows.join(', ')} in ${answer.text.slice(0, 300)}`,
        );
        assert.ok(answer.text.includes('LOCKED'), answer.text.slice(0, 300));
      } else {
        assert.ok(shows.length > 0, `paid key sees the bank data in ${answer.text.slice(0, 300)}`);
      }
    }
  }
});
