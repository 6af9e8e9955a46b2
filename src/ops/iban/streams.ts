import { Type, type Static } from '@sinclair/typebox';
import { validateIban } from '../../domain/iban/index.js';
import { limits } from '../../limits.js';
import {
  generateCost,
  generateRowParameters,
  generateRows,
  generatedRowsSchema,
  type GenerateInput,
} from './generate.js';
import { defineOp } from '../framework/op.js';
import { countryField, strictObject } from '../framework/schemas.js';

/** Wire names of the compact verdict enums (proto Reason / NationalCheck). */
const reasonNames = {
  valid: 'VALID',
  invalid_characters: 'INVALID_CHARACTERS',
  unsupported_country: 'UNSUPPORTED_COUNTRY',
  invalid_length: 'INVALID_LENGTH',
  invalid_structure: 'INVALID_STRUCTURE',
  invalid_checksum: 'INVALID_CHECKSUM',
  invalid_national_checksum: 'INVALID_NATIONAL_CHECKSUM',
} as const;
const nationalNames = {
  not_applicable: 'NOT_APPLICABLE',
  passed: 'PASSED',
  failed: 'FAILED',
  not_checked: 'NOT_CHECKED',
} as const;

const validateBatchInput = strictObject({
  ibans: Type.Array(Type.String({ maxLength: limits.ibanInputCharsMax }), {
    minItems: 1,
    maxItems: limits.streamBatchIbansMax,
  }),
  batch_id: Type.Optional(Type.String({ maxLength: limits.requestIdCharsMax })),
});

export const ibanValidateStream = defineOp({
  name: 'iban.validate_stream',
  needs: ['bank'] as const,
  runsOn: 'any',
  tag: 'IBAN',
  summary: 'Validate batches of IBANs over a bidirectional stream (gRPC only)',
  description:
    'Batches of up to 1,000 IBANs in, compact verdicts out, in order. One API credit per IBAN; no bank data.',
  http: null,
  grpc: { method: 'ValidateStream', wrap: 'object', stream: 'bidi' },
  access: 'key',
  input: validateBatchInput,
  output: Type.Object({}),
  cost: (input) => ({ api_calls: input.ibans.length }),
  rows: (input) => input.ibans.length,
  run: (input, context) => {
    const reasons = new Array<string>(input.ibans.length);
    const national = new Array<string>(input.ibans.length);
    let validCount = 0;
    for (let index = 0; index < input.ibans.length; index++) {
      const verdict = validateIban(input.ibans[index] as string, context.bank);
      reasons[index] = reasonNames[verdict.error ?? 'valid'];
      national[index] = nationalNames[verdict.nationalCheck];
      if (verdict.valid) validCount++;
    }
    return { batch_id: input.batch_id ?? null, reasons, national, valid_count: validCount };
  },
});

const generateStreamInput = strictObject({
  country: countryField,
  count: Type.Integer({ minimum: 1, maximum: limits.generateStreamRowsMax }),
  seed: Type.Optional(Type.String({ minLength: 1, maxLength: limits.generateSeedCharsMax })),
  include_bank_details: Type.Boolean({ default: false }),
});
type GenerateStreamInput = Static<typeof generateStreamInput>;

function asGenerateInput(input: GenerateStreamInput): GenerateInput {
  return {
    country: input.country,
    quantity: 1,
    include_bank_details: input.include_bank_details,
    ...(input.seed === undefined ? {} : { seed: input.seed }),
  };
}

export const ibanGenerateStream = defineOp({
  name: 'iban.generate_stream',
  needs: ['requestKey', 'bank'] as const,
  runsOn: 'any',
  tag: 'IBAN',
  summary: 'Seeded stream of generated IBANs (gRPC only)',
  description:
    'Up to 100,000 rows in chunks of 1,000; row i equals row i of POST /generate with the same parameters.',
  http: null,
  grpc: { method: 'GenerateStream', wrap: 'rows', stream: 'server' },
  access: 'key',
  input: generateStreamInput,
  output: generatedRowsSchema,
  keyScope: 'iban.generate',
  seedOf: (input) => input.seed,
  rowParameters: (input) => generateRowParameters(asGenerateInput(input)),
  cost: (input, caller) => generateCost(asGenerateInput(input), caller, input.count),
  rows: (input) => input.count,
  chunks: {
    size: limits.generateStreamChunkRows,
    total: (input) => input.count,
    slice: (input, rows) => ({ ...input, count: rows }),
  },
  /** Runs one chunk: `count` rows from context.rowStart (the service slices the stream into chunks). */
  run: (input, context) => generateRows(asGenerateInput(input), context, input.count),
});
