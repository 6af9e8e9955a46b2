import { vopLabels, type VopLabel } from './labels.js';
import { perturbations, type Perturbation } from './perturbations.js';

export interface ScoredRow {
  readonly perturbation: Perturbation;
  readonly expected: VopLabel;
  readonly predicted: VopLabel;
}

export type ConfusionMatrix = Record<VopLabel, Record<VopLabel, number>>;

export interface Score {
  readonly rows_scored: number;
  readonly correct: number;
  readonly accuracy: number;
  /** confusion_matrix[expected][predicted] = rows. */
  readonly confusion_matrix: ConfusionMatrix;
  readonly per_label: {
    label: VopLabel;
    expected: number;
    predicted: number;
    correct: number;
    recall: number | null;
    precision: number | null;
  }[];
  readonly per_perturbation: {
    perturbation: Perturbation;
    rows: number;
    correct: number;
    accuracy: number | null;
  }[];
}

const ratio = (part: number, whole: number): number | null =>
  whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;

export function scoreRows(rows: readonly ScoredRow[]): Score {
  const confusion = Object.fromEntries(
    vopLabels.map((expected) => [
      expected,
      Object.fromEntries(vopLabels.map((predicted) => [predicted, 0])),
    ]),
  ) as ConfusionMatrix;
  for (const row of rows) confusion[row.expected][row.predicted] += 1;
  const correct = rows.filter((row) => row.expected === row.predicted).length;
  return {
    rows_scored: rows.length,
    correct,
    accuracy: ratio(correct, rows.length) ?? 0,
    confusion_matrix: confusion,
    per_label: vopLabels.map((label) => {
      const expected = rows.filter((row) => row.expected === label).length;
      const predicted = rows.filter((row) => row.predicted === label).length;
      const hits = confusion[label][label];
      return {
        label,
        expected,
        predicted,
        correct: hits,
        recall: ratio(hits, expected),
        precision: ratio(hits, predicted),
      };
    }),
    per_perturbation: perturbations.map((perturbation) => {
      const subset = rows.filter((row) => row.perturbation === perturbation);
      const hits = subset.filter((row) => row.expected === row.predicted).length;
      return {
        perturbation,
        rows: subset.length,
        correct: hits,
        accuracy: ratio(hits, subset.length),
      };
    }),
  };
}
