import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crossover } from '../pool-threshold.js';
import { renderResults } from './report.js';

test('RESULTS.md renders without any result file and says what was not run', () => {
  const text = renderResults({
    machine: undefined,
    runs: [],
    micro: undefined,
    rest: undefined,
    grpc: undefined,
    pool: undefined,
    profile: undefined,
    failures: { rest: 'boom' },
  });
  assert.match(text, /## 1\. Micro-benchmarks \(tinybench\)\n\nNot run\./);
  assert.match(text, /rest FAILED in this run: boom/);
});

test('crossover is the first size from which the condition holds for every larger size', () => {
  const cells = [100, 1_000, 2_000, 5_000].map((rows) => ({ rows }));
  assert.equal(
    crossover(cells, (cell) => cell.rows >= 2_000),
    2_000,
  );
  assert.equal(
    crossover(cells, (cell) => cell.rows === 100),
    null,
  ); // holds only at the small end: no crossover
  assert.equal(
    crossover(cells, () => true),
    100,
  );
});
