// Goal: every status the service really sends is one its contract lists: over REST, each (operation, status) pair,
// and the error code under it, is in the OpenAPI document, and a success without a key only happens where the
// document asks for none; over gRPC, each error code is one the op declares. Method: every service the test suites
// start records each distinct answer it sends (IBANQA_OBSERVED_STATUSES_DIR, set by test/helpers/service.ts and
// service-process.ts) into one directory per `node --test` run; this file runs after all of them and compares.
// It relies on running last: `npm test` (scripts/run-tests.mjs) runs every other test file first, then this folder
// on its own with the same record directory; test/zz-contract also sorts after every other test directory
// (checked below), so a plain sorted `node --test` over all files keeps the order too. Run on its own, or with a few
// files that started no service, it drives a bounded fuzz run itself, so it never checks nothing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readObservedStatuses } from '../../src/transport/observed-statuses.js';
import { runFuzz } from '../fuzz/harness.js';
import { contractBreaches } from '../helpers/contract-check.js';
import { observedStatusesDir } from '../helpers/observed-statuses.js';
import { startTestService } from '../helpers/service.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = observedStatusesDir();
after(() => {
  // The run's records are read once; a later run (a new runner pid) starts from nothing.
  if (process.env.IBANQA_OBSERVED_STATUSES_DIR === undefined)
    rmSync(dir, { recursive: true, force: true });
});

test('this file sorts after every other test file, as the suite runs them', () => {
  const files = execFileSync('find', ['src', 'test', 'bench', '-name', '*.test.ts'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((line) => line !== '');
  const sorted = execFileSync('sort', { cwd: root, input: files.join('\n'), encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '');
  assert.equal(sorted.at(-1), 'test/zz-contract/observed-statuses.test.ts');
  assert.equal([...files].sort().at(-1), 'test/zz-contract/observed-statuses.test.ts');
});

/** Nothing recorded yet (this file alone): a bounded fuzz run over both fronts records into the same directory. */
async function fuzzWhenAlone(diagnostic: (message: string) => void): Promise<void> {
  if (readObservedStatuses(dir).some((observed) => observed.transport === 'rest')) return;
  diagnostic('no statuses recorded by other test files in this run: fuzzing 3,000 requests');
  const service = await startTestService();
  try {
    const report = await runFuzz(
      { restBase: service.base, grpcAddress: service.grpcAddress, keys: service.keys },
      { requests: 3_000, seed: 20261125 },
    );
    assert.deepEqual(report.failures.slice(0, 20), []);
  } finally {
    await service.dispose();
  }
}

test('every status, operation and error code the services answered is one the contract lists', async (t) => {
  await fuzzWhenAlone((message) => t.diagnostic(message));
  const observed = readObservedStatuses(dir);
  const rest = observed.filter((answer) => answer.transport === 'rest');
  t.diagnostic(
    `${rest.length} distinct REST answers over ${new Set(rest.map((a) => a.operation)).size} operations, ` +
      `${observed.length - rest.length} gRPC, recorded in ${dir}`,
  );
  assert.ok(rest.length > 0, `nothing was recorded in ${dir}`);
  assert.deepEqual(contractBreaches(observed), []);
});
