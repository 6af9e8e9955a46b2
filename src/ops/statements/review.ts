import { Type } from '@sinclair/typebox';
import { defineOp } from '../framework/op.js';
import { strictObject } from '../framework/schemas.js';
import { keyIdOf, statementsOf } from './analyze.js';
import { reviewSchema } from './schemas.js';

const reviewIdInput = strictObject({
  review_id: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'The review_id the upload returned',
  }),
});

const common = {
  tag: 'Statement review',
  access: 'key',
  input: reviewIdInput,
  cost: () => ({}),
  rows: () => 1,
  needs: ['statements'],
  runsOn: 'main',
  // A review that does not exist, expired, or belongs to another key.
  refusals: ['not_found'],
} as const;

export const statementReview = defineOp({
  ...common,
  name: 'statements.review',
  summary: 'Poll a statement review',
  description:
    '202 while the analysis runs (review_step queued or analyzing), 200 with the full report once completed or analysis_failed (failure.reason). 404 when the review does not exist, expired, or belongs to another key. No credit.',
  http: { method: 'GET', path: '/statement-validator/review/:review_id', inputFrom: 'query' },
  grpc: { method: 'GetStatementReview', wrap: 'object' },
  output: reviewSchema,
  successStatusOf: (output: Record<string, unknown>) =>
    output.status === 'pending_analysis' ? 202 : 200,
  run: (input, context) => statementsOf(context).view(keyIdOf(context.caller), input.review_id),
});

export const statementReviewDelete = defineOp({
  ...common,
  name: 'statements.review.delete',
  summary: 'Delete a statement review, its upload and every artifact',
  description:
    "Removes the encrypted upload, the review record and the report at once (also while the analysis runs). 404 when missing or another key's. No credit.",
  http: { method: 'DELETE', path: '/statement-validator/review/:review_id', inputFrom: 'query' },
  grpc: { method: 'DeleteStatementReview', wrap: 'object' },
  output: Type.Object({
    success: Type.Boolean(),
    review_id: Type.String(),
    deleted: Type.Boolean(),
    deleted_artifacts: Type.Array(Type.String()),
  }),
  run: (input, context) => statementsOf(context).remove(keyIdOf(context.caller), input.review_id),
});
