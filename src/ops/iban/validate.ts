import { Type, type Static } from '@sinclair/typebox';
import { validateIban, type IbanVerdict } from '../../domain/iban/index.js';
import { noRegistryContext } from '../../domain/iban/national/types.js';
import { limits } from '../../limits.js';
import type { BankDirectory, BankIds, BankInfo } from '../../registry/bank-directory.js';
import type { NationalContext } from '../../domain/iban/national/types.js';
import { withRowTails, type RowTail } from '../../render/json-bytes.js';
import {
  bankFieldSchemas,
  invalidRowFields,
  sharedBankFields,
  type SharedBankFields,
} from '../registry/bank-fields.js';
import { planOf } from '../../domain/plans/plans.js';
import { defineOp, type CallerView } from '../framework/op.js';
import type { ValidationRow } from './validation-row.js';
import { revealsOf, validateAnswer, ValidateAnswer } from './validate-answer.js';
import { nullableString, strictObject } from '../framework/schemas.js';

export const validateInput = strictObject({
  ibans: Type.Array(Type.String({ maxLength: limits.ibanInputCharsMax }), {
    minItems: 1,
    maxItems: limits.validateIbansMax,
    description: `1 to ${limits.validateIbansMax} IBANs (spaces and lower case allowed); keyless: at most ${limits.keylessIbansPerRequestMax}`,
  }),
});
export type ValidateInput = Static<typeof validateInput>;

export type { ValidationRow } from './validation-row.js';

/**
 * The national check asks for a bank's check method, and a valid row then shows the same bank: this
 * context remembers the bank it looked up for the row, so each row reads the directory once.
 */
class RowBank implements NationalContext {
  private countryCode: string | null = null;
  private bankCode: string | null = null;
  private info: BankInfo | undefined;

  constructor(private readonly bank: BankDirectory) {}

  accountCheckMethod(countryCode: string, bankCode: string): string | undefined {
    return this.bankOf(countryCode, bankCode)?.accountCheckMethod ?? undefined;
  }

  bankIds(): BankIds {
    return this.bank.bankIds();
  }

  bankOf(countryCode: string, bankCode: string): BankInfo | undefined {
    if (countryCode !== this.countryCode || bankCode !== this.bankCode) {
      this.countryCode = countryCode;
      this.bankCode = bankCode;
      this.info = this.bank.bankOf(countryCode, bankCode);
    }
    return this.info;
  }
}

/** One verdict row and its bank fields (shared); bank data looked up only for valid rows (an unknown bank is not an invalid IBAN). */
function rowAndFields(
  input: string,
  verdict: IbanVerdict,
  caller: CallerView,
  bank: Pick<BankDirectory, 'bankOf'>,
): [ValidationRow, SharedBankFields] {
  if (!verdict.valid) {
    const fields = invalidRowFields(caller);
    const row: ValidationRow = {
      iban: input,
      valid: false,
      error: verdict.error ?? 'invalid_structure',
      message: verdict.message ?? 'invalid IBAN',
      country_code: verdict.countryCode,
      bank_code: verdict.bankCode,
      national_check: verdict.nationalCheck,
      ...fields.fields,
    };
    return [row, fields];
  }
  const info =
    verdict.countryCode === null || verdict.bankCode === null
      ? undefined
      : bank.bankOf(verdict.countryCode, verdict.bankCode);
  const fields = sharedBankFields(info, caller, true);
  const row: ValidationRow = {
    iban: input,
    valid: true,
    country_code: verdict.countryCode,
    bank_code: verdict.bankCode,
    national_check: verdict.nationalCheck,
    ...fields.fields,
  };
  return [row, fields];
}

export function validationRow(
  input: string,
  verdict: IbanVerdict,
  caller: CallerView,
  bank: Pick<BankDirectory, 'bankOf'>,
): ValidationRow {
  return rowAndFields(input, verdict, caller, bank)[0];
}

/** The rows in input order, with each row's bank tail hidden on the array for the REST serializer. */
export function validateList(
  ibans: readonly string[],
  caller: CallerView,
  bank: BankDirectory,
): ValidationRow[] {
  const rows = new Array<ValidationRow>(ibans.length);
  const tails = new Array<RowTail>(ibans.length);
  const rowBank = new RowBank(bank);
  for (let index = 0; index < ibans.length; index++) {
    const input = ibans[index] as string;
    const [row, fields] = rowAndFields(input, validateIban(input, rowBank), caller, rowBank);
    rows[index] = row;
    tails[index] = fields.validationTail;
  }
  return withRowTails(rows, tails);
}

/** The same rows as an answer that writes its own JSON from bank tails encoded once (validate-answer.ts). */
export function validateJsonAnswer(
  ibans: readonly string[],
  caller: CallerView,
  bank: BankDirectory,
): ValidateAnswer {
  const rowBank = new RowBank(bank);
  return validateAnswer(ibans, caller, rowBank, (input, verdict) =>
    validationRow(input, verdict, caller, rowBank),
  );
}

/**
 * BIC reveals to hold for a list: the IBANs that are valid without the registry's national check methods.
 * Without the registry a method-dependent national check is not_checked, never failed, so this is never
 * fewer than the rows that will show bank data; the commit (revealedRows) charges exactly those.
 */
function revealsAtMost(ibans: readonly string[]): number {
  let count = 0;
  for (const iban of ibans) if (validateIban(iban, noRegistryContext).valid) count++;
  return count;
}

/**
 * Where the plan caps BIC reveals, hold the exact upper bound (a list that fits must not be refused); where
 * nothing caps them (the unlimited plan) there is nothing to refuse, so the second validation pass is skipped
 * and the commit still charges the rows that revealed (usedCost).
 */
function revealsToHold(ibans: readonly string[], caller: CallerView): number {
  return caller.plan !== null && planOf(caller.plan).allowances.bic_reveals === null
    ? ibans.length
    : revealsAtMost(ibans);
}

/** The reveals an answer made: counted as it was written, or from its rows. */
function revealedRows(output: readonly ValidationRow[] | ValidateAnswer): number {
  if (output instanceof ValidateAnswer) return output.revealed;
  let count = 0;
  for (const row of output) count += revealsOf(row);
  return count;
}

export const validationRowSchema = Type.Object({
  iban: Type.String({ description: 'The input, echoed unchanged' }),
  valid: Type.Boolean(),
  error: Type.Optional(
    Type.Union(
      [
        'invalid_characters',
        'unsupported_country',
        'invalid_length',
        'invalid_structure',
        'invalid_checksum',
        'invalid_national_checksum',
      ].map((reason) => Type.Literal(reason)),
      { description: 'Most specific reason first (clarifications §4)' },
    ),
  ),
  message: Type.Optional(Type.String()),
  country_code: nullableString('Country of the IBAN, when it could be read'),
  bank_code: nullableString('Bank code from the BBAN, when the structure could be read'),
  national_check: Type.Union(
    ['passed', 'failed', 'not_applicable', 'not_checked'].map((v) => Type.Literal(v)),
  ),
  ...bankFieldSchemas,
});

export const ibanValidate = defineOp({
  name: 'iban.validate',
  needs: ['bank'] as const,
  runsOn: 'any',
  tag: 'IBAN',
  summary: 'Validate a list of IBANs with precise reasons',
  description:
    'One row per input, in order. Reasons: invalid_characters, unsupported_country, invalid_length, invalid_structure, ' +
    'invalid_checksum (mod 97, or check digits 00/01/99), invalid_national_checksum. A checksum-valid IBAN of a bank the ' +
    'registry does not know is valid with bank_match "no_match". Keyless: at most 10 IBANs per request and 100 per day ' +
    'per client IP (X-RateLimit-Remaining), bank fields locked. With a key: one API credit per IBAN; paid keys also spend ' +
    'one BIC reveal per row that shows a bank (an invalid IBAN or an unknown bank reveals nothing and costs no reveal); ' +
    'free keys get LOCKED placeholders. A paid key whose BIC reveals do not cover the list gets the answer with bank ' +
    'fields locked (locked_reason "bic_reveals_exhausted"), not a 429, and spends API credits only.',
  http: { method: 'POST', path: '/validate', inputFrom: 'body' },
  grpc: { method: 'Validate', wrap: 'rows' },
  access: 'key_optional',
  keylessRowsMax: limits.keylessIbansPerRequestMax,
  input: validateInput,
  output: Type.Array(validationRowSchema),
  cost: (input, caller) =>
    caller.paid
      ? { api_calls: input.ibans.length, bic_reveals: revealsToHold(input.ibans, caller) }
      : { api_calls: input.ibans.length },
  costWithoutReveals: (input) => ({ api_calls: input.ibans.length }),
  usedCost: (input, rows, caller) =>
    caller.paid && caller.revealsSpent !== true
      ? {
          api_calls: input.ibans.length,
          bic_reveals: revealedRows(rows as readonly ValidationRow[] | ValidateAnswer),
        }
      : { api_calls: input.ibans.length },
  rows: (input) => input.ibans.length,
  run: (input, context) => validateList(input.ibans, context.caller, context.bank),
  runJson: (input, context) => validateJsonAnswer(input.ibans, context.caller, context.bank),
});
