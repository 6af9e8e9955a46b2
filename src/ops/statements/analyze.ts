import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import { limits } from '../../limits.js';
import type { StatementReviews } from '../../statements/reviews.js';
import { statementDebits } from '../../statements/reviews.js';
import { checkedUpload, statementUpload, type UploadPart } from './upload-check.js';
import { defineOp, type CallerView, type RunContext } from '../framework/op.js';
import { strictObject } from '../framework/schemas.js';
import { reviewSchema } from './schemas.js';

export function statementsOf(context: RunContext<'statements'>): StatementReviews {
  return context.statements;
}

export function keyIdOf(caller: CallerView): string {
  if (caller.keyId === null)
    throw new AppError('unauthenticated', 'Statement reviews belong to an API key');
  return caller.keyId;
}

const bankField = (description: string) =>
  Type.Optional(
    Type.String({ minLength: 1, maxLength: limits.statementExpectedBankCharsMax, description }),
  );

export const statementAnalyze = defineOp({
  name: 'statements.analyze',
  needs: ['statements'] as const,
  // The upload, the review record and the analysis queue live on the main thread; the analysis itself runs in the pool.
  runsOn: 'main',
  tag: 'Statement review',
  summary: 'Upload one bank statement for an asynchronous risk review',
  description:
    'multipart/form-data with exactly one statement_file (PDF, PNG, JPG/JPEG or WEBP, recognised by its bytes; at most 8 MB) and ' +
    'optional expected_bank and expected_bank_slug. Answers 202 with review_id; poll GET /statement-validator/review/{review_id}. ' +
    "Costs one statement credit of the plan, refunded if the analysis fails for the service's reason. 400 codes: statement_file_missing, " +
    'statement_file_duplicate, statement_file_empty, statement_file_too_large, statement_file_unsupported_type, multipart_malformed. ' +
    'Also served at POST /statements/analyze.',
  http: {
    method: 'POST',
    path: '/statement-validator/analyze',
    inputFrom: 'multipart',
    aliasPaths: ['/statements/analyze'],
  },
  grpc: { method: 'AnalyzeStatement', stream: 'client', wrap: 'object' },
  access: 'key',
  successStatus: 202,
  upload: statementUpload,
  input: strictObject({
    files: Type.Array(Type.Unsafe<UploadPart>({ description: 'a file part' })),
    expected_bank: bankField(
      'Bank the statement should come from (name); compared with the printed and the registry bank',
    ),
    expected_bank_slug: bankField('The same as a slug, e.g. "deutsche-bank"'),
  }),
  multipartSchema: Type.Object(
    {
      [statementUpload.field]: Type.String({
        format: 'binary',
        description: 'The statement: PDF, PNG, JPG/JPEG or WEBP, at most 8 MB',
      }),
      expected_bank: bankField('Bank the statement should come from'),
      expected_bank_slug: bankField('The same as a slug'),
    },
    { required: [statementUpload.field] },
  ),
  output: reviewSchema,
  // The upload rules are checked here, before the credit is reserved: a bad file costs nothing. The run
  // reads the same verdict (the file and its type), so the upload is checked once.
  gate: (input) => void checkedUpload(input),
  // The upload checks (upload-check.ts; the byte cap is the transports') and the analysis queue, full at
  // limits.statementQueueMax.
  refusals: [
    'statement_file_missing',
    'statement_file_duplicate',
    'statement_file_empty',
    'statement_file_too_large',
    'statement_file_unsupported_type',
    'overloaded',
  ],
  cost: () => statementDebits,
  rows: () => 0,
  run: (input, context) => {
    const { file, kind } = checkedUpload(input);
    return statementsOf(context).accept({
      keyId: keyIdOf(context.caller),
      paid: context.caller.paid,
      bytes: file.bytes,
      kind,
      expectedBank: input.expected_bank ?? null,
      expectedBankSlug: input.expected_bank_slug ?? null,
    });
  },
});
