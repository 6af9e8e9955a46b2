/**
 * The reference VoP name matcher on the benchmark's own matrices: accuracy and confusion matrix.
 *
 *   node --import tsx bench/vop-matcher.bench.ts
 *
 * Compiles 1,000 rows for each seed (the default seed first, then five more), labels every row with the reference
 * matcher (src/domain/names/matcher.ts, which sees the two names only) and scores the labels with the service's own
 * scoring (src/domain/names/score.ts): accuracy per seed, the confusion matrix over all rows (expected x predicted),
 * accuracy per perturbation, the distinct holders per seed, and a few misses to read. Writes
 * bench/results/vop-matcher.json and its RESULTS.md section.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { vopLabels } from '../src/domain/names/labels.js';
import { referenceMatch } from '../src/domain/names/matcher.js';
import { compileMatrix } from '../src/domain/names/matrix.js';
import { scoreRows, type ScoredRow } from '../src/domain/names/score.js';
import { requestKeyOf } from '../src/domain/rng.js';
import { resultsMdPath } from './lib/report.js';
import { round, writeResult } from './lib/results.js';
import { writeSection } from './lib/sections.js';

const rowsPerSeed = 1_000;
const seeds = ['default', 'bench-1', 'bench-2', 'bench-3', 'bench-4', 'bench-5'];

const perSeed = seeds.map((seed) => {
  const start = performance.now();
  const rows = compileMatrix(requestKeyOf(seed, 'vop.matrix|{}'), rowsPerSeed, undefined);
  const labelled = rows.map((row) => ({
    row,
    predicted: referenceMatch(row.payer_name, row.account_name).label,
  }));
  const ms = performance.now() - start;
  const scored: ScoredRow[] = labelled.map(({ row, predicted }) => ({
    perturbation: row.perturbation,
    expected: row.expected_label,
    predicted,
  }));
  const misses = labelled
    .filter(({ row, predicted }) => row.expected_label !== predicted)
    .map(
      ({ row, predicted }) =>
        `${row.perturbation}: "${row.payer_name}" / "${row.account_name}" -> ${predicted}`,
    );
  return {
    seed,
    ms: round(ms, 1),
    distinctHolders: new Set(rows.map((row) => row.account_name)).size,
    scored,
    score: scoreRows(scored),
    misses,
  };
});

const overall = scoreRows(perSeed.flatMap((entry) => entry.scored));
const load = loadavg()
  .map((value) => round(value, 2))
  .join(', ');
const cell = (expected: (typeof vopLabels)[number]) =>
  vopLabels.map((predicted) => overall.confusion_matrix[expected][predicted]).join(' | ');

writeResult('vop-matcher', {
  rowsPerSeed,
  seeds: perSeed.map(({ seed, ms, distinctHolders, score, misses }) => ({
    seed,
    ms,
    distinctHolders,
    accuracy: score.accuracy,
    confusion: score.confusion_matrix,
    misses: misses.slice(0, 10),
  })),
  overall: {
    rows: overall.rows_scored,
    accuracy: overall.accuracy,
    confusion: overall.confusion_matrix,
    perPerturbation: overall.per_perturbation,
  },
  load,
});
writeSection(
  resultsMdPath,
  'vop-matcher',
  [
    '## VoP benchmark: the reference matcher on its matrices (bench/vop-matcher.bench.ts)',
    '',
    `${rowsPerSeed.toLocaleString('en')} rows for each of ${seeds.length} seeds (${seeds.join(', ')}); the reference ` +
      "matcher labels every row from the two names alone; scored with the service's scoring. Load average " +
      `${load} when measured.`,
    '',
    '| seed | distinct holders | accuracy | compile + match ms |',
    '| --- | --- | --- | --- |',
    ...perSeed.map(
      (entry) =>
        `| ${entry.seed} | ${entry.distinctHolders} | ${entry.score.accuracy} | ${entry.ms} |`,
    ),
    `| all ${overall.rows_scored.toLocaleString('en')} rows | | **${overall.accuracy}** | |`,
    '',
    'Confusion matrix over all rows (rows: expected, columns: predicted):',
    '',
    `| expected \\ predicted | ${vopLabels.join(' | ')} |`,
    `| --- | ${vopLabels.map(() => '---').join(' | ')} |`,
    ...vopLabels.map((label) => `| ${label} | ${cell(label)} |`),
    '',
    'Accuracy per perturbation (only those below 1):',
    '',
    ...overall.per_perturbation
      .filter((entry) => entry.accuracy !== 1)
      .map(
        (entry) => `- ${entry.perturbation}: ${entry.correct}/${entry.rows} (${entry.accuracy})`,
      ),
    '',
    'Misses of the default seed (first five):',
    '',
    ...(perSeed[0]?.misses.slice(0, 5).map((miss) => `- ${miss}`) ?? []),
  ].join('\n'),
);
process.stdout.write(
  `${perSeed.map((entry) => `${entry.seed} ${entry.score.accuracy} (${entry.distinctHolders} holders)`).join('; ')}; overall ${overall.accuracy}; load ${load}\n`,
);
