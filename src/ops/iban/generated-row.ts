import { Type } from '@sinclair/typebox';
import { generateIban, type CountryFormat, type GeneratedIban } from '../../domain/iban/index.js';
import { rngPick, rowRng, type Rng } from '../../domain/rng.js';
import type { BankInfo } from '../../registry/bank-directory.js';
import {
  bankFieldSchemas,
  sharedBankFields,
  type BankFields,
  type SharedBankFields,
} from '../registry/bank-fields.js';
import type { RunContext } from '../framework/op.js';
import { nullableString } from '../framework/schemas.js';
import type { TargetMatch } from './targeting.js';

export interface RowPlan {
  readonly format: CountryFormat;
  /**
   * Real banks to draw the bank code from, or null for a synthetic bank code (the registry knows no bank of the
   * country, and nothing was requested). The account is synthetic either way.
   */
  readonly banks: readonly BankInfo[] | null;
  /** include_bank_details or a target: the row reveals the bank's name, BIC and city (bank_match says so). */
  readonly revealBank: boolean;
  readonly target: TargetMatch | null;
  readonly seed: string | undefined;
}

export type GeneratedRow = {
  iban: string;
  valid: true;
  synthetic: true;
  country_code: string;
  bank_code: string;
  branch_code: string | null;
  account_number: string;
  national_check: GeneratedIban['nationalCheck'];
  custom_target?: Record<string, string | null>;
  coverage?: Record<string, string | number>;
  seed?: string;
} & BankFields;

function pickBank(plan: RowPlan, rng: Rng): BankInfo | undefined {
  return plan.banks === null || plan.banks.length === 0 ? undefined : rngPick(rng, plan.banks);
}

/** What row `index` of a request drew: its IBAN and the real bank it drew the bank code from, if any. */
export interface DrawnRow {
  readonly generated: GeneratedIban;
  readonly bank: BankInfo | undefined;
}

/** The random part of row `index`: a pure function of (request key, index, plan, registry). */
export function drawRow(
  plan: RowPlan,
  context: RunContext<'bank' | 'requestKey'>,
  index: number,
): DrawnRow {
  const rng = rowRng(context.requestKey, index);
  const bank = pickBank(plan, rng);
  const generated = generateIban(
    plan.format,
    rng,
    bank === undefined ? {} : { bankCode: bank.bankCode },
    context.bank,
  );
  return { generated, bank };
}

/** The bank fields of a drawn row: the bank is shown only when the plan reveals it. */
export function rowBankFields(
  plan: RowPlan,
  context: RunContext<'bank' | 'requestKey'>,
  bank: BankInfo | undefined,
): SharedBankFields {
  return sharedBankFields(plan.revealBank ? bank : undefined, context.caller, plan.revealBank);
}

export interface TargetFields {
  readonly custom_target: Record<string, string | null>;
  readonly coverage: Record<string, string | number>;
}

/** What a targeted row says about its target (the bank code it generated last, as the writer relies on). */
export function targetFieldsOf(
  target: TargetMatch,
  bank: BankInfo,
  generatedBankCode: string,
): TargetFields {
  return {
    custom_target: {
      scope: target.scope,
      bank_name: bank.name,
      city: bank.city,
      swift_code: bank.bic,
      match_level: target.matchLevel,
      generated_bank_code: generatedBankCode,
    },
    coverage: {
      match_status: 'matched',
      matched_value: bank.bic ?? bank.name ?? bank.bankCode,
      candidates: target.banks.length,
    },
  };
}

/** Row `index` of a request: a pure function of (request key, index, plan, registry). */
export function generateRow(
  plan: RowPlan,
  context: RunContext<'bank' | 'requestKey'>,
  index: number,
): GeneratedRow {
  const { generated, bank } = drawRow(plan, context, index);
  const row: GeneratedRow = {
    iban: generated.iban,
    valid: true,
    synthetic: true,
    country_code: generated.countryCode,
    bank_code: generated.bankCode,
    branch_code: generated.branchCode,
    account_number: generated.accountNumber,
    national_check: generated.nationalCheck,
    ...rowBankFields(plan, context, bank).fields,
  };
  if (plan.target !== null && bank !== undefined) {
    const { custom_target, coverage } = targetFieldsOf(plan.target, bank, generated.bankCode);
    row.custom_target = custom_target;
    row.coverage = coverage;
  }
  if (plan.seed !== undefined) row.seed = plan.seed;
  return row;
}

export const generatedRowSchema = Type.Object({
  iban: Type.String({
    description: 'Synthetic IBAN (electronic format): mod 97 and national check digits valid',
  }),
  valid: Type.Literal(true),
  synthetic: Type.Literal(true, {
    description: 'The account part is synthetic; it does not identify a real account',
  }),
  country_code: Type.String(),
  bank_code: Type.String({
    description:
      "Bank code inside the BBAN: a real bank code wherever the registry knows the country's banks (its name and BIC are revealed only with include_bank_details or targeting), otherwise synthetic",
  }),
  branch_code: nullableString('Branch code inside the BBAN, where the country has one'),
  account_number: Type.String(),
  national_check: Type.Union(
    ['passed', 'failed', 'not_applicable', 'not_checked'].map((v) => Type.Literal(v)),
    {
      description:
        'National check digits: passed; not_applicable (country has none); not_checked (method unknown to the registry)',
    },
  ),
  ...bankFieldSchemas,
  custom_target: Type.Optional(
    Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()])),
  ),
  coverage: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
  seed: Type.Optional(Type.String()),
});
