import { Type, type Static } from '@sinclair/typebox';
import { planOf, planIds, type PlanId } from '../../domain/plans/plans.js';
import { AppError } from '../../errors.js';
import { limits } from '../../limits.js';
import { loadFaker } from '../../domain/profiles/faker-loader.js';
import { countryOrThrow } from '../framework/country.js';
import {
  bulkProfileCells,
  bulkProfileColumns,
  bulkRowProfile,
  type BulkProfile,
} from '../profiles/bulk-profiles.js';
import { referenceDay } from '../profiles/builtin.js';
import { drawRows, GeneratedAnswer, seedBytesOf } from './generated-answer.js';
import { generateRow, type GeneratedRow, type RowPlan } from './generated-row.js';
import { realBanksOf } from './generate.js';
import { defineOp, type CallerView, type RunContext } from '../framework/op.js';
import { countryField, datasetSeedField, outputField, strictObject } from '../framework/schemas.js';

export const bulkDatasetInput = strictObject({
  country: countryField,
  quantity: Type.Integer({
    minimum: 1,
    maximum: limits.bulkDatasetRowsMax,
    default: limits.bulkDatasetQuantityDefault,
  }),
  seed: Type.Optional(datasetSeedField),
  output: outputField,
  include_bank_details: Type.Boolean({ default: true }),
  include_profiles: Type.Boolean({
    default: false,
    description:
      'Adds a synthetic person holding the row IBAN to every row (one profile credit per row)',
  }),
});
type BulkDatasetInput = Static<typeof bulkDatasetInput>;

export type BulkRow = {
  index: number;
  iban_formatted: string;
  profile?: BulkProfile;
} & GeneratedRow;

/** Print format: groups of four separated by spaces (ISO 13616 paper format). */
function printFormat(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}

function smallestPlanAllowing(rows: number): PlanId | undefined {
  return planIds.find((id) => (planOf(id).bulkRowCap ?? 0) >= rows && id !== 'unlimited');
}

function gateBulk(input: BulkDatasetInput, caller: CallerView): void {
  if (caller.plan === null || !caller.paid) {
    throw new AppError('bulk_dataset_requires_paid_access', 'Bulk datasets need a paid plan', {
      required_plan: 'pass24h',
      pricing_url: '/pricing',
    });
  }
  const cap = planOf(caller.plan).bulkRowCap ?? 0;
  if (input.quantity > cap) {
    const required = smallestPlanAllowing(input.quantity) ?? 'enterprise';
    throw new AppError(
      'payment_required',
      `The ${planOf(caller.plan).name} plan allows bulk datasets of up to ${cap} rows, ${input.quantity} requested`,
      {
        required_plan: required,
        pricing_url: '/pricing',
        limit: cap,
      },
    );
  }
}

function bulkPlan(input: BulkDatasetInput, context: RunContext<'bank' | 'requestKey'>): RowPlan {
  const format = countryOrThrow(input.country);
  return {
    format,
    ...realBanksOf(format.code, context, input.include_bank_details),
    target: null,
    seed: input.seed,
  };
}

function bulkRows(input: BulkDatasetInput, context: RunContext<'bank' | 'requestKey'>): BulkRow[] {
  const plan = bulkPlan(input, context);
  const rows = new Array<BulkRow>(input.quantity);
  const today = input.include_profiles ? referenceDay(context) : undefined;
  for (let offset = 0; offset < input.quantity; offset++) {
    const index = context.rowStart + offset;
    const row = generateRow(plan, context, index);
    const bulkRow: BulkRow = { index, iban_formatted: printFormat(row.iban), ...row };
    if (today !== undefined)
      bulkRow.profile = bulkRowProfile(
        plan.format.code,
        row.iban,
        row.bank_code,
        index,
        context,
        today,
      );
    rows[offset] = bulkRow;
  }
  return rows;
}

/** The answer around its rows (rows last, as the JSON writer expects). */
function envelopeOf(
  input: BulkDatasetInput,
  context: RunContext<'bank' | 'requestKey'>,
  count: number,
) {
  const limit = context.caller.plan === null ? 0 : (planOf(context.caller.plan).bulkRowCap ?? 0);
  return { success: true as const, limit, count, seed: input.seed ?? null };
}

function bulkAnswer(input: BulkDatasetInput, context: RunContext<'bank' | 'requestKey'>) {
  const rows = bulkRows(input, context);
  return { ...envelopeOf(input, context, rows.length), rows };
}

/** The same answer written in one pass (generated-answer.ts): no row objects. */
function bulkJsonAnswer(
  input: BulkDatasetInput,
  context: RunContext<'bank' | 'requestKey'>,
): GeneratedAnswer {
  const plan = bulkPlan(input, context);
  const drawn = drawRows(plan, context, input.quantity);
  const envelope = JSON.stringify(envelopeOf(input, context, input.quantity));
  const today = input.include_profiles ? referenceDay(context) : undefined;
  const profiles =
    today === undefined
      ? undefined
      : drawn.rows.map(({ generated }, offset) => {
          const profile = bulkRowProfile(
            plan.format.code,
            generated.iban,
            generated.bankCode,
            context.rowStart + offset,
            context,
            today,
          );
          return Buffer.from(`,"profile":${JSON.stringify(profile)}`, 'utf8');
        });
  return new GeneratedAnswer(drawn, seedBytesOf(plan.seed), {
    envelopeHead: Buffer.from(`${envelope.slice(0, -1)},"rows":`, 'utf8'),
    firstIndex: context.rowStart,
    profiles,
  });
}

const csvColumns = [
  'index',
  'iban',
  'iban_formatted',
  'country_code',
  'bank_code',
  'branch_code',
  'account_number',
  'national_check',
  'valid',
  'swift_code',
  'bank_name',
  'bank_city',
  'bank_match',
  'seed',
] as const;

export const ibanBulkDataset = defineOp({
  name: 'iban.bulk_dataset',
  needs: ['requestKey', 'bank'] as const,
  runsOn: 'any',
  tag: 'IBAN',
  summary: 'Bulk dataset of synthetic IBAN rows (JSON or CSV)',
  description:
    'Paid plans only (402 bulk_dataset_requires_paid_access). Row caps: 24h Pass 40, Starter 500, Pro/Business/Enterprise ' +
    '10,000 (402 payment_required with required_plan above the cap). include_profiles=true adds `profile` (the ' +
    '/profile personal-data shape, holding the row IBAN) to every row, and in CSV the columns ' +
    `${bulkProfileColumns.join(', ')} after the others; it costs one profile credit per row (spent profile credits: ` +
    '403 generation_limit_reached). Cost: quantity API credits, plus quantity BIC reveal and bank metadata credits with ' +
    `bank details. CSV columns: ${csvColumns.join(', ')}.`,
  http: { method: 'POST', path: '/bulk-dataset', inputFrom: 'body' },
  grpc: { method: 'BulkDataset', wrap: 'object' },
  refusals: ['bulk_dataset_requires_paid_access'],
  access: 'key',
  input: bulkDatasetInput,
  output: Type.Object({
    success: Type.Literal(true),
    limit: Type.Integer({ description: "The caller plan's row cap" }),
    count: Type.Integer(),
    seed: Type.Union([Type.String(), Type.Null()]),
    rows: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  }),
  seedOf: (input) => input.seed,
  // include_profiles is not a row parameter: the IBAN columns are the same with and without profiles.
  rowParameters: (input) => ({
    country: countryOrThrow(input.country).code,
    banks: input.include_bank_details,
  }),
  gate: gateBulk,
  cost: (input) => ({
    api_calls: input.quantity,
    ...(input.include_bank_details
      ? { bic_reveals: input.quantity, bank_metadata: input.quantity }
      : {}),
    ...(input.include_profiles ? { profiles: input.quantity } : {}),
  }),
  exhaustedErrors: { profiles: 'generation_limit_reached' },
  rows: (input) => input.quantity,
  // Profiles draw from faker, loaded on this thread's first request that asks for them; without profiles the run
  // stays synchronous, as it always was.
  run: (input, context) =>
    input.include_profiles
      ? loadFaker().then(() => bulkAnswer(input, context))
      : bulkAnswer(input, context),
  runJson: (input, context) =>
    input.include_profiles
      ? loadFaker().then(() => bulkJsonAnswer(input, context))
      : bulkJsonAnswer(input, context),
  csv: {
    wanted: (input) => (input as BulkDatasetInput).output === 'csv',
    headers: csvColumns,
    headersFor: (output) =>
      output.rows[0]?.profile === undefined ? csvColumns : [...csvColumns, ...bulkProfileColumns],
    rows: (output) =>
      output.rows.map((row) => {
        const cells = csvColumns.map(
          (column) =>
            ((row as unknown as Record<string, unknown>)[column] as
              string | number | boolean | null) ?? null,
        );
        return row.profile === undefined ? cells : [...cells, ...bulkProfileCells(row.profile)];
      }),
  },
});
