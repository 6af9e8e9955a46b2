import { Type, type Static } from '@sinclair/typebox';
import { limits } from '../../limits.js';
import { countryOrThrow } from '../framework/country.js';
import {
  generatedRowSchema,
  generateRow,
  type GeneratedRow,
  type RowPlan,
} from './generated-row.js';
import { drawRows, GeneratedAnswer, seedBytesOf } from './generated-answer.js';
import { defineOp, type CallerView, type Debits, type RunContext } from '../framework/op.js';
import { countryField, strictObject } from '../framework/schemas.js';
import {
  gateTargeting,
  matchTarget,
  targetingAliasSchemas,
  targetingOf,
  targetingSchema,
} from './targeting.js';

/** The output of generate and of each GenerateStream chunk. */
export const generatedRowsSchema = Type.Array(generatedRowSchema);

export const generateInput = strictObject({
  country: countryField,
  quantity: Type.Integer({ minimum: 1, maximum: limits.generateQuantityMax, default: 1 }),
  seed: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: limits.generateSeedCharsMax,
      description: 'Makes output reproducible',
    }),
  ),
  include_bank_details: Type.Boolean({
    default: false,
    description:
      "Reveal the bank's published BIC, name and city (bank codes are real by default wherever the registry knows the country's banks)",
  }),
  targeting: Type.Optional(targetingSchema),
  ...targetingAliasSchemas,
});
export type GenerateInput = Static<typeof generateInput>;

/** What decides each row (not quantity): country, bank details, targeting. Shared with GenerateStream. */
export function generateRowParameters(input: GenerateInput): unknown {
  return {
    country: countryOrThrow(input.country).code,
    banks: input.include_bank_details,
    target: targetingOf(input) ?? null,
  };
}

export function generatePlan(
  input: GenerateInput,
  context: RunContext<'bank' | 'requestKey'>,
): RowPlan {
  const format = countryOrThrow(input.country);
  const targeting = targetingOf(input);
  if (targeting !== undefined) {
    const target = matchTarget(targeting, format.code, context.bank);
    return { format, banks: target.banks, revealBank: true, target, seed: input.seed };
  }
  return {
    format,
    ...realBanksOf(format.code, context, input.include_bank_details),
    target: null,
    seed: input.seed,
  };
}

/**
 * Real bank codes by default: wherever the registry knows a country's banks, rows use them (the account stays
 * synthetic); the bank is revealed only when asked. Asked for and unknown: synthetic codes, bank_match no_match.
 */
export function realBanksOf(
  countryCode: string,
  context: RunContext<'bank'>,
  reveal: boolean,
): Pick<RowPlan, 'banks' | 'revealBank'> {
  const banks = context.bank.generationBanksOf(countryCode);
  return { banks: banks.length > 0 || reveal ? banks : null, revealBank: reveal };
}

/** Spec metering: quantity API credits; BIC reveal and bank metadata credits per row when bank data is revealed. */
export function generateCost(input: GenerateInput, caller: CallerView, rows: number): Debits {
  const revealsBankData =
    caller.paid && (input.include_bank_details || targetingOf(input) !== undefined);
  return revealsBankData
    ? { api_calls: rows, bic_reveals: rows, bank_metadata: rows }
    : { api_calls: rows };
}

export function generateRows(
  input: GenerateInput,
  context: RunContext<'bank' | 'requestKey'>,
  count: number,
): GeneratedRow[] {
  const plan = generatePlan(input, context);
  const rows = new Array<GeneratedRow>(count);
  for (let offset = 0; offset < count; offset++)
    rows[offset] = generateRow(plan, context, context.rowStart + offset);
  return rows;
}

/** The same rows as an answer that writes its own JSON (generated-answer.ts): no row objects. */
export function generateJsonAnswer(
  input: GenerateInput,
  context: RunContext<'bank' | 'requestKey'>,
  count: number,
): GeneratedAnswer {
  const plan = generatePlan(input, context);
  return new GeneratedAnswer(drawRows(plan, context, count), seedBytesOf(plan.seed), undefined);
}

export const ibanGenerate = defineOp({
  name: 'iban.generate',
  needs: ['requestKey', 'bank'] as const,
  runsOn: 'any',
  tag: 'IBAN',
  summary: 'Generate synthetic, checksum-valid IBANs',
  description:
    'Rows are synthetic IBANs whose ISO 7064 mod 97-10 and national check digits are valid. With a seed, row i depends ' +
    'only on (seed, country, include_bank_details, targeting, i, registry snapshot): a smaller quantity gives a prefix ' +
    'of a larger one. Targeting: city needs any paid plan, bank Pro, bic Business (402 advanced_targeting_required); ' +
    'a target that matches no real bank is 404 target_no_match. Cost: quantity API credits, plus quantity BIC reveal ' +
    'and bank metadata credits on paid keys when bank data is revealed (include_bank_details or targeting).',
  http: { method: 'POST', path: '/generate', inputFrom: 'body' },
  grpc: { method: 'Generate', wrap: 'rows' },
  refusals: ['advanced_targeting_required', 'target_no_match'],
  access: 'key',
  input: generateInput,
  output: generatedRowsSchema,
  seedOf: (input) => input.seed,
  rowParameters: generateRowParameters,
  gate: (input, caller) => gateTargeting(targetingOf(input), caller),
  cost: (input, caller) => generateCost(input, caller, input.quantity),
  rows: (input) => input.quantity,
  run: (input, context) => generateRows(input, context, input.quantity),
  runJson: (input, context) => generateJsonAnswer(input, context, input.quantity),
});
