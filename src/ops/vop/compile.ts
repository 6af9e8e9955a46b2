import { Type } from '@sinclair/typebox';
import { compileMatrix } from '../../domain/names/matrix.js';
import { defineOp } from '../framework/op.js';
import { strictObject } from '../framework/schemas.js';
import {
  limitOf,
  matrixRowSchema,
  matrixSelection,
  outcomesOf,
  requireBusiness,
  vopDefaultSeed,
  vopKeyScope,
} from './common.js';

export const vopCompile = defineOp({
  name: 'vop.compile',
  needs: ['requestKey'] as const,
  runsOn: 'any',
  tag: 'Name matching',
  summary: 'Compile a deterministic Verification of Payee name-matching matrix',
  description:
    'Synthetic account holders (persons and legal entities of SEPA countries, names with diacritics) and the name a payer typed, ' +
    'perturbed in a controlled way, each with the expected label (MATCH, CLOSE_MATCH, NO_MATCH, NOAP), its rationale and, for ' +
    'CLOSE_MATCH, the name returned to the payer. seed (default "default"), limit 1-1,000 (default 200), outcomes filter. ' +
    'Business plan or higher (402 otherwise). Cost: one API credit per row.',
  http: { method: 'POST', path: '/vop-benchmark/compile', inputFrom: 'body' },
  grpc: { method: 'VopBenchmarkCompile', wrap: 'object' },
  access: 'key',
  input: strictObject(matrixSelection),
  output: Type.Object({
    success: Type.Literal(true),
    seed: Type.String(),
    count: Type.Integer(),
    labels_note: Type.String(),
    rows: Type.Array(matrixRowSchema),
  }),
  keyScope: vopKeyScope,
  seedOf: (input) => input.seed ?? vopDefaultSeed,
  rowParameters: () => ({}),
  gate: (_input, caller) => requireBusiness(caller),
  cost: (input) => ({ api_calls: limitOf(input) }),
  rows: (input) => limitOf(input),
  run: (input, context) => {
    const rows = compileMatrix(context.requestKey, limitOf(input), outcomesOf(input));
    return {
      success: true as const,
      seed: input.seed ?? vopDefaultSeed,
      count: rows.length,
      labels_note:
        "Labels are QA expectations, not a claim about any provider's live matching. Names are synthetic.",
      rows,
    };
  },
});
