import { Type, type Static } from '@sinclair/typebox';
import { vopLabels, type VopLabel } from '../../domain/names/labels.js';
import { perturbations } from '../../domain/names/perturbations.js';
import { artifactLimits } from '../../limits.js';
import type { CallerView } from '../framework/op.js';
import { requirePlan } from '../registry/common.js';

/** Compile and score share one key scope: the same seed names the same rows for both. */
export const vopKeyScope = 'vop.matrix';
/** Without a seed the matrix is the default one (its reference score is published in the README). */
export const vopDefaultSeed = 'default';

export const labelField = Type.Union(vopLabels.map((label) => Type.Literal(label)));

export const matrixSelection = {
  seed: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: artifactLimits.vopSeedCharsMax,
      description: `Names the matrix; default "${vopDefaultSeed}"`,
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: artifactLimits.vopRowsMax,
      default: artifactLimits.vopRowsDefault,
      description: `Rows, 1 to ${artifactLimits.vopRowsMax} (default ${artifactLimits.vopRowsDefault})`,
    }),
  ),
  outcomes: Type.Optional(
    Type.Array(labelField, {
      minItems: 1,
      maxItems: vopLabels.length,
      uniqueItems: true,
      description: 'Only rows with these expected labels',
    }),
  ),
};

export interface Selection {
  readonly seed?: string;
  readonly limit?: number;
  readonly outcomes?: readonly VopLabel[];
}

export function outcomesOf(selection: Selection): ReadonlySet<VopLabel> | undefined {
  return selection.outcomes === undefined ? undefined : new Set(selection.outcomes);
}

export function limitOf(selection: Selection): number {
  return selection.limit ?? artifactLimits.vopRowsDefault;
}

export const matrixRowSchema = Type.Object({
  row_id: Type.String({
    description: '"r" + the row index: row i is the same in every matrix of this seed',
  }),
  country: Type.String(),
  holder_kind: Type.Union([Type.Literal('person'), Type.Literal('entity')]),
  account_name: Type.String({ description: "The name as the payee's PSP holds it (synthetic)" }),
  payer_name: Type.String({ description: 'The name the payer typed' }),
  perturbation: Type.Union(perturbations.map((name) => Type.Literal(name))),
  edit_distance: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Levenshtein distance from account_name (typo rows)',
  }),
  expected_label: labelField,
  rationale: Type.String(),
  returned_name: Type.Union([Type.String(), Type.Null()], {
    description: 'CLOSE_MATCH: the name returned to the payer (the name as held)',
  }),
  synthetic: Type.Literal(true),
});
export type MatrixRowOutput = Static<typeof matrixRowSchema>;

export function requireBusiness(caller: CallerView): void {
  requirePlan(caller, 'business', 'payment_required', 'The name-matching benchmark');
}
