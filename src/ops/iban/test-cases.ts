import { Type, type Static } from '@sinclair/typebox';
import { buildTestCases, type TestCase } from '../../domain/iban/index.js';
import { limits } from '../../limits.js';
import { countryOrThrow } from '../framework/country.js';
import { defineOp, type CallerView } from '../framework/op.js';
import { datasetSeedField, countryField, outputField, strictObject } from '../framework/schemas.js';

export const testCasesInput = strictObject({
  country: countryField,
  quantity: Type.Integer({
    minimum: 1,
    maximum: limits.testCasesQuantityMax,
    default: limits.testCasesQuantityDefault,
  }),
  seed: Type.Optional(datasetSeedField),
  output: outputField,
});
type TestCasesInput = Static<typeof testCasesInput>;

/** Spec rule 5: free keys receive preview-sized batches. */
function casesFor(input: TestCasesInput, caller: CallerView): number {
  return caller.paid ? input.quantity : Math.min(input.quantity, limits.testCasesFreePreviewMax);
}

export interface TestCasesOutput {
  success: true;
  country_code: string;
  seed: string | null;
  count: number;
  preview: boolean;
  cases: TestCase[];
}

const testCaseSchema = Type.Object({
  case_id: Type.String(),
  category: Type.String({
    description:
      'valid, checksum, length, malformed, country_mismatch, national_checksum, check_digit_alias, normalisation',
  }),
  input: Type.String({ description: 'The string to feed to the system under test' }),
  country_code: Type.String(),
  expected_valid: Type.Boolean(),
  expected_error: Type.Union([Type.String(), Type.Null()], {
    description: 'The reason POST /validate gives for this input',
  }),
  description: Type.String(),
  tags: Type.Array(Type.String()),
});

export const ibanTestCases = defineOp({
  name: 'iban.test_cases',
  needs: ['requestKey', 'bank'] as const,
  runsOn: 'any',
  tag: 'IBAN',
  summary: 'IBAN edge cases with the verdict each must produce',
  description:
    'Valid and invalid edge cases for one country: checksum, wrong length, malformed, country mismatch, national check ' +
    'digits and the check-digit aliases 00/01/99, each with expected_valid and the expected_error POST /validate gives. ' +
    'JSON (default) or CSV. Free keys receive a preview of at most 5 cases. One API credit per case returned.',
  http: { method: 'POST', path: '/test-cases', inputFrom: 'body' },
  grpc: { method: 'TestCases', wrap: 'object' },
  access: 'key',
  input: testCasesInput,
  output: Type.Object({
    success: Type.Literal(true),
    country_code: Type.String(),
    seed: Type.Union([Type.String(), Type.Null()]),
    count: Type.Integer(),
    preview: Type.Boolean({ description: 'true when a free key received a preview-sized batch' }),
    cases: Type.Array(testCaseSchema),
  }),
  seedOf: (input) => input.seed,
  rowParameters: (input) => ({ country: countryOrThrow(input.country).code }),
  cost: (input, caller) => ({ api_calls: casesFor(input, caller) }),
  rows: (input) => input.quantity,
  run: (input, context): TestCasesOutput => {
    const format = countryOrThrow(input.country);
    const count = casesFor(input, context.caller);
    const cases = buildTestCases(format, context.requestKey, count, context.bank);
    return {
      success: true,
      country_code: format.code,
      seed: input.seed ?? null,
      count: cases.length,
      preview: count < input.quantity,
      cases,
    };
  },
  csv: {
    wanted: (input) => (input as TestCasesInput).output === 'csv',
    headers: [
      'case_id',
      'category',
      'input',
      'country_code',
      'expected_valid',
      'expected_error',
      'description',
      'tags',
    ],
    rows: (output) =>
      output.cases.map((c) => [
        c.case_id,
        c.category,
        c.input,
        c.country_code,
        c.expected_valid,
        c.expected_error,
        c.description,
        c.tags.join('|'),
      ]),
  },
});
