import { Type } from '@sinclair/typebox';
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
    score: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    risk_level: Type.Optional(
      Type.Union(['low', 'medium', 'high'].map((value) => Type.Literal(value))),
    ),
    is_bank_statement: Type.Optional(Type.Boolean()),
    summary: Type.Optional(Type.String()),
    document: Type.Optional(Type.Object({}, { additionalProperties: true })),
    extracted_fields: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            'account_holder, iban (first), ibans (all), bank_name, bic, statement_period, statement_date, language, number_format, currency, balances, transactions',
        },
      ),
    ),
    iban_checks: Type.Optional(Type.Array(validationRowSchema)),
    domestic_account_checks: Type.Optional(
      Type.Array(Type.Object({}, { additionalProperties: true })),
    ),
    checks: Type.Optional(
      Type.Array(
        Type.Object({
          check: Type.String({
            description:
              'balance_arithmetic | running_balances | carried_forward_balances | transaction_dates_in_period | iban | routing_number',
          }),
          status: Type.Union(
            ['passed', 'failed', 'not_checked'].map((value) => Type.Literal(value)),
          ),
          reason: Type.Optional(Type.String({ description: 'Why the check could not run' })),
        }),
      ),
    ),
    positive_signals: Type.Optional(Type.Array(signalSchema)),
    risk_signals: Type.Optional(Type.Array(signalSchema)),
    inconsistencies: Type.Optional(Type.Array(signalSchema)),
    recommendations: Type.Optional(Type.Array(Type.String())),
    failure: Type.Optional(
      Type.Object({ reason: Type.String(), message: Type.String(), refunded: Type.Boolean() }),
    ),
  },
  { additionalProperties: false },
);
