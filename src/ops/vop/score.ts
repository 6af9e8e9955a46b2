import { Type, type Static } from '@sinclair/typebox';
import { compileMatrix, matrixRow, rowIndexOf, type MatrixRow } from '../../domain/names/matrix.js';
import { scoreRows, type ScoredRow } from '../../domain/names/score.js';
import { perturbations } from '../../domain/names/perturbations.js';
import { vopLabels, type VopLabel } from '../../domain/names/labels.js';
import { AppError } from '../../errors.js';
import { artifactLimits } from '../../limits.js';
import type { RequestKey } from '../../domain/rng.js';
import { defineOp } from '../framework/op.js';
import { strictObject } from '../framework/schemas.js';
import {
  labelField,
  limitOf,
  matrixSelection,
  outcomesOf,
  requireBusiness,
  vopDefaultSeed,
  vopKeyScope,
} from './common.js';

const rowIdField = Type.String({
  minLength: 1,
  maxLength: 16,
  description: 'row_id of a compiled row',
});
const nameField = Type.String({ maxLength: artifactLimits.vopNameCharsMax });

export const vopScoreInput = strictObject({
  ...matrixSelection,
  labels: Type.Optional(
    Type.Array(strictObject({ row_id: rowIdField, label: labelField }), {
      minItems: 1,
      maxItems: artifactLimits.vopScoreLabelsMax,
      description: "Your matcher's label per row of the matrix named by seed, limit and outcomes",
    }),
  ),
  rows: Type.Optional(
    Type.Array(
      strictObject({
        row_id: rowIdField,
        label: labelField,
        account_name: Type.Optional(nameField),
        payer_name: Type.Optional(nameField),
        expected_label: Type.Optional(labelField),
      }),
      {
        minItems: 1,
        maxItems: artifactLimits.vopScoreLabelsMax,
        description:
          'Or the compiled rows themselves (any subset, for this seed), each with your label',
      },
    ),
  ),
});
type ScoreInput = Static<typeof vopScoreInput>;

function bad(message: string): AppError {
  return new AppError('invalid_argument', message);
}

/** Labels by row id for the matrix named by seed + limit + outcomes; every label must name a row of it, once. */
function fromSelection(
  input: ScoreInput,
  key: RequestKey,
  labels: NonNullable<ScoreInput['labels']>,
): ScoredRow[] {
  const matrix = new Map(
    compileMatrix(key, limitOf(input), outcomesOf(input)).map((row) => [row.row_id, row]),
  );
  const seen = new Set<string>();
  return labels.map(({ row_id, label }) => {
    const row = matrix.get(row_id);
    if (row === undefined)
      throw bad(
        `row_id ${row_id} is not a row of this matrix (seed, limit and outcomes as compiled)`,
      );
    if (seen.has(row_id)) throw bad(`row_id ${row_id} is labelled twice`);
    seen.add(row_id);
    return { perturbation: row.perturbation, expected: row.expected_label, predicted: label };
  });
}

/** Submitted rows are checked against the rows this seed generates: a row that does not exist, or differs, is a 400. */
function fromRows(key: RequestKey, rows: NonNullable<ScoreInput['rows']>): ScoredRow[] {
  const seen = new Set<string>();
  return rows.map((submitted) => {
    const index = rowIndexOf(submitted.row_id);
    // compileMatrix reads at most limit x perturbations.length rows: no compiled row lies beyond that.
    if (index === undefined || index >= artifactLimits.vopRowsMax * perturbations.length)
      throw bad(`row_id ${submitted.row_id} is not a row id of the matrix`);
    if (seen.has(submitted.row_id)) throw bad(`row_id ${submitted.row_id} is submitted twice`);
    seen.add(submitted.row_id);
    const row: MatrixRow = matrixRow(key, index);
    for (const field of ['account_name', 'payer_name', 'expected_label'] as const) {
      if (submitted[field] !== undefined && submitted[field] !== row[field])
        throw bad(`row ${submitted.row_id}: ${field} is not the one this seed generates`);
    }
    return {
      perturbation: row.perturbation,
      expected: row.expected_label,
      predicted: submitted.label,
    };
  });
}

const countsByLabel = Type.Object(
  Object.fromEntries(vopLabels.map((label) => [label, Type.Integer()])) as Record<
    VopLabel,
    ReturnType<typeof Type.Integer>
  >,
);

export const vopScore = defineOp({
  name: 'vop.score',
  needs: ['requestKey'] as const,
  runsOn: 'any',
  tag: 'Name matching',
  summary: "Score a matcher's labels against a compiled matrix",
  description:
    "Send your matcher's labels either by row_id for the matrix named by seed, limit and outcomes (`labels`), or as the compiled " +
    'rows themselves with a `label` each (`rows`, any subset). Returns accuracy, the confusion matrix (expected x predicted), ' +
    'recall and precision per label and accuracy per perturbation. A row that does not exist is a 400. Business plan or higher; ' +
    'cost: one API credit.',
  http: { method: 'POST', path: '/vop-benchmark/score', inputFrom: 'body' },
  grpc: { method: 'VopBenchmarkScore', wrap: 'object' },
  access: 'key',
  input: vopScoreInput,
  output: Type.Object({
    success: Type.Literal(true),
    seed: Type.String(),
    rows_scored: Type.Integer(),
    correct: Type.Integer(),
    accuracy: Type.Number(),
    confusion_matrix: Type.Object(
      Object.fromEntries(vopLabels.map((label) => [label, countsByLabel])),
    ),
    per_label: Type.Array(
      Type.Object({
        label: Type.String(),
        expected: Type.Integer(),
        predicted: Type.Integer(),
        correct: Type.Integer(),
        recall: Type.Union([Type.Number(), Type.Null()]),
        precision: Type.Union([Type.Number(), Type.Null()]),
      }),
    ),
    per_perturbation: Type.Array(
      Type.Object({
        perturbation: Type.String(),
        rows: Type.Integer(),
        correct: Type.Integer(),
        accuracy: Type.Union([Type.Number(), Type.Null()]),
      }),
    ),
  }),
  keyScope: vopKeyScope,
  seedOf: (input) => input.seed ?? vopDefaultSeed,
  rowParameters: () => ({}),
  gate: (input, caller) => {
    requireBusiness(caller);
    if ((input.labels === undefined) === (input.rows === undefined))
      throw bad(
        'send either labels (by row_id) or rows (with a label each), not both and not neither',
      );
  },
  cost: () => ({ api_calls: 1 }),
  rows: (input) => input.labels?.length ?? input.rows?.length ?? 1,
  run: (input, context) => {
    const scored =
      input.labels !== undefined
        ? fromSelection(input, context.requestKey, input.labels)
        : fromRows(context.requestKey, input.rows ?? []);
    return { success: true as const, seed: input.seed ?? vopDefaultSeed, ...scoreRows(scored) };
  },
});
