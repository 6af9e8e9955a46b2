import { Type, type TOptional } from '@sinclair/typebox';
import { limits } from '../../limits.js';
import { nullableString } from '../framework/schemas.js';
import { validationRowSchema } from '../iban/validate.js';

const evidence = Type.Object({
  page: Type.Union([Type.Integer(), Type.Null()]),
  text: Type.String(),
});

export const signalSchema = Type.Object({
  code: Type.String({ description: 'A code of the signal table in README ("Statement review")' }),
  severity: Type.Union(['info', 'low', 'medium', 'high'].map((value) => Type.Literal(value))),
  message: Type.String(),
  evidence: Type.Array(evidence, {
    description: `Where it was seen (page, quoted text); at most ${limits.statementSignalsPerCodeMax}`,
  }),
  occurrences: Type.Integer(),
});

export const retentionSchema = Type.Object({
  expires_at: Type.String({
    description: 'When the upload, the record and the report are deleted',
  }),
  retention_seconds: Type.Integer(),
  processor: Type.String(),
  region: Type.String({ description: 'IBANQA_STATEMENT_REGION, as the operator declares it' }),
  encryption: Type.Object({}, { additionalProperties: true }),
  deletion: Type.String(),
});

export const quotaSchema = Type.Object({
  limit: Type.Union([Type.Integer(), Type.Null()]),
  left: Type.Union([Type.Integer(), Type.Null()]),
  unlimited: Type.Boolean(),
});

/** A content check and its status, as the report lists every one of them. */
const checkStatusSchema = Type.Object({
  check: Type.String({
    description:
      'balance_arithmetic | running_balances | carried_forward_balances | transaction_dates_in_period | iban | routing_number',
  }),
  status: Type.Union(['passed', 'failed', 'not_checked'].map((value) => Type.Literal(value))),
  reason: Type.Optional(Type.String({ description: 'Why the check could not run' })),
});

/** The fields of a completed review's report, in the order a poll shows them. */
const reportFields = {
  score: Type.Integer({ minimum: 0, maximum: 100 }),
  risk_level: Type.Union(['low', 'medium', 'high'].map((value) => Type.Literal(value))),
  is_bank_statement: Type.Boolean(),
  summary: Type.String(),
  document: Type.Object({}, { additionalProperties: true }),
  extracted_fields: Type.Object(
    {},
    {
      additionalProperties: true,
      description:
        'account_holder, iban (first), ibans (all), bank_name, bic, statement_period, statement_date, language, number_format, currency, balances, transactions',
    },
  ),
  iban_checks: Type.Array(validationRowSchema),
  domestic_account_checks: Type.Array(Type.Object({}, { additionalProperties: true })),
  checks: Type.Array(checkStatusSchema),
  positive_signals: Type.Array(signalSchema),
  risk_signals: Type.Array(signalSchema),
  inconsistencies: Type.Array(signalSchema),
  recommendations: Type.Array(Type.String()),
};

/** The report an analysis hands back from the pool, checked against this before it is stored (report-check.ts). */
export const statementReportSchema = Type.Object(reportFields, { additionalProperties: false });

type ReportFields = typeof reportFields;

/** The report's fields as a poll shows them: present once the review completed. */
const optionalReportFields = Object.fromEntries(
  Object.entries(reportFields).map(([name, schema]) => [name, Type.Optional(schema)]),
) as { [K in keyof ReportFields]: TOptional<ReportFields[K]> };

/** A review as answered by the upload (with quota), the poll (with the report once completed) and gRPC. */
export const reviewSchema = Type.Object(
  {
    success: Type.Boolean(),
    status: Type.Union(
      ['pending_analysis', 'completed', 'analysis_failed'].map((value) => Type.Literal(value)),
    ),
    review_id: Type.String({ description: '128 random bits, 32 hex characters' }),
    review_step: Type.Union(['queued', 'analyzing', 'done'].map((value) => Type.Literal(value))),
    review_message: Type.String(),
    created_at: Type.String(),
    completed_at: nullableString('When the analysis ended'),
    media_type: Type.String({ description: "As recognised from the file's bytes" }),
    size_bytes: Type.Integer(),
    quota: Type.Optional(quotaSchema),
    retention: retentionSchema,
    ...optionalReportFields,
    failure: Type.Optional(
      Type.Object({ reason: Type.String(), message: Type.String(), refunded: Type.Boolean() }),
    ),
  },
  { additionalProperties: false },
);
