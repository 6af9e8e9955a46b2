import { Type, type Static } from '@sinclair/typebox';
import { compileMatrix, type MatrixRow } from '../../domain/names/matrix.js';
import { scoreRows, type ScoredRow } from '../../domain/names/score.js';
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
          'Or the compiled rows themselves (any subset of the matrix named by seed, limit and outcomes), each with your label',
      },
    ),
  ),
});
type ScoreInput = Static<typeof vopScoreInput>;

function bad(message: string): AppError {
  return new AppError('invalid_argument', message);
}

type Matrix = ReadonlyMap<string, MatrixRow>;

/** The matrix named by seed + limit + outcomes, by row id: what both forms of input are scored against. */
function matrixOf(input: ScoreInput, key: RequestKey): Matrix {
  return new Map(
    compileMatrix(key, limitOf(input), outcomesOf(input)).map((row) => [row.row_id, row]),
  );
}

/** The matrix row a submission names, once each; anything else is a 400 that says which row and why. */
function rowOf(matrix: Matrix, rowId: string, seen: Set<string>): MatrixRow {
  const row = matrix.get(rowId);
  if (row === undefined)
    throw bad(
      `row_id ${rowId} is not a row of this matrix: send the seed, limit and outcomes it was compiled with`,
    );
  if (seen.has(rowId)) throw bad(`row_id ${rowId} is submitted twice`);
  seen.add(rowId);
  return row;
}

function fromLabels(matrix: Matrix, labels: NonNullable<ScoreInput['labels']>): ScoredRow[] {
  const seen = new Set<string>();
  return labels.map(({ row_id, label }) => {
    const row = rowOf(matrix, row_id, seen);
    return { perturbation: row.perturbation, expected: row.expected_label, predicted: label };
  });
}

/** Submitted rows must be rows of the matrix, and any name or label they carry must be the generated one. */
function fromRows(matrix: Matrix, rows: NonNullable<ScoreInput['rows']>): ScoredRow[] {
  const seen = new Set<string>();
  return rows.map((submitted) => {
    const row = rowOf(matrix, submitted.row_id, seen);
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

/** How much of the matrix was scored: its size and the row ids no label was sent for, in row order. */
function coverageOf(matrix: Matrix, input: ScoreInput) {
  const sent = new Set((input.labels ?? input.rows ?? []).map((entry) => entry.row_id));
  const leftOut = [...matrix.keys()].filter((rowId) => !sent.has(rowId));
  return { matrix_rows: matrix.size, rows_left_out: leftOut.length, left_out_row_ids: leftOut };
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
    'recall and precision per label, accuracy per perturbation, and coverage: the matrix size and the row ids left out. ' +
    'A row that is not in the matrix named by seed, limit and outcomes is a 400. Business plan or higher; ' +
    'cost: one API credit.',
  http: { method: 'POST', path: '/vop-benchmark/score', inputFrom: 'body' },
  grpc: { method: 'VopBenchmarkScore', wrap: 'object' },
  access: 'key',
  input: vopScoreInput,
  output: Type.Object({
    success: Type.Literal(true),
    seed: Type.String(),
    rows_scored: Type.Integer(),
    matrix_rows: Type.Integer({
      description: 'Rows of the matrix named by seed, limit and outcomes',
    }),
    rows_left_out: Type.Integer({ description: 'Rows of that matrix no label was sent for' }),
    left_out_row_ids: Type.Array(Type.String(), { description: 'Their row ids, in row order' }),
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
    const matrix = matrixOf(input, context.requestKey);
    const scored =
      input.labels !== undefined
        ? fromLabels(matrix, input.labels)
        : fromRows(matrix, input.rows ?? []);
    return {
      success: true as const,
      seed: input.seed ?? vopDefaultSeed,
      ...scoreRows(scored),
      ...coverageOf(matrix, input),
    };
  },
});
