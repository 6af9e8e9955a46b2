import { Type } from '@sinclair/typebox';
import { calculateIban } from '../../domain/iban/index.js';
import { countryOrThrow } from '../framework/country.js';
import { bankFieldSchemas, bankFieldsOf } from '../registry/bank-fields.js';
import { defineOp } from '../framework/op.js';
import { countryField, nullableString, strictObject } from '../framework/schemas.js';
import { limits } from '../../limits.js';

const component = (description: string) =>
  Type.String({ minLength: 1, maxLength: limits.bbanComponentCharsMax, description });

export const ibanCalculate = defineOp({
  name: 'iban.calculate',
  needs: ['bank'] as const,
  runsOn: 'any',
  tag: 'IBAN',
  summary: 'Build an IBAN from its national components',
  description:
    'Builds the BBAN from bank code, branch code and account number (a numeric account is left-padded with zeros, never ' +
    'truncated); a bank code as long as bank and branch code together (FR 2004101005, IT 0542811101) is split at the ' +
    'registry positions, and a branch_code sent as well must agree. Bank and branch codes are never padded. It ' +
    'computes the national check digits where the country defines them and the IBAN check digits. Components ' +
    'that cannot form a valid BBAN give 400 with the reason. One API credit.',
  http: { method: 'POST', path: '/iban/calculate', inputFrom: 'body' },
  grpc: { method: 'Calculate', wrap: 'object' },
  access: 'key',
  input: strictObject({
    country: countryField,
    bank_code: Type.Optional(
      component(
        'National bank code; where the branch code follows it in the BBAN, both together are accepted',
      ),
    ),
    branch_code: Type.Optional(component('Branch code, where the country has one')),
    account_number: component('Account number'),
    national_check_digits: Type.Optional(
      component('National check digits to verify instead of computing them'),
    ),
  }),
  output: Type.Object({
    iban: Type.String(),
    bban: Type.String(),
    country_code: Type.String(),
    bank_code: Type.String(),
    branch_code: nullableString('Branch code'),
    account_number: Type.String(),
    national_check: Type.String(),
    ...bankFieldSchemas,
  }),
  cost: () => ({ api_calls: 1 }),
  rows: () => 1,
  run: (input, context) => {
    const format = countryOrThrow(input.country);
    const built = calculateIban(
      format,
      {
        accountNumber: input.account_number,
        ...(input.bank_code === undefined ? {} : { bankCode: input.bank_code }),
        ...(input.branch_code === undefined ? {} : { branchCode: input.branch_code }),
        ...(input.national_check_digits === undefined
          ? {}
          : { nationalCheckDigits: input.national_check_digits }),
      },
      context.bank,
    );
    return {
      iban: built.iban,
      bban: built.bban,
      country_code: built.countryCode,
      bank_code: built.bankCode,
      branch_code: built.branchCode,
      account_number: built.accountNumber,
      national_check: built.nationalCheck,
      ...bankFieldsOf(context.bank.bankOf(built.countryCode, built.bankCode), context.caller, true),
    };
  },
});
