import { createHash } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import type { IdempotencyRequest } from '../../ports/idempotency.js';
import {
  checkRoutingNumber,
  routingTestCases,
  type RoutingTestCase,
} from '../../domain/routing/index.js';
import { rngBelow, rngDigits, rowRng, type Rng } from '../../domain/rng.js';
import { AppError } from '../../errors.js';
import type { RoutingTarget } from '../../registry/routing-directory.js';
import { canonicalize } from 'json-canonicalize';
import { defineOp, type CallerView, type RunContext } from '../framework/op.js';
import { strictObject } from '../framework/schemas.js';
import { directoryOf, directoryStatusOf, resolveTarget, routingTargetSchema } from './common.js';
import { limits } from '../../limits.js';
import {
  creditsOf,
  gateQuoteBody,
  quoteBodyProperties,
  quoteHashOf,
  quoteSchema,
} from './quote.js';
import { routingReport, routingReportProperties, type RoutingReport } from './report.js';
import { usEnvelope, usEnvelopeSchemas } from './envelope.js';

export const requestIdPattern = '^\\d{13}-[0-9a-f]{32}$';

export const routingRunInput = strictObject({
  ...quoteBodyProperties,
  max_credits: Type.Integer({
    minimum: 0,
    description: 'max_credits from POST /us/routing/quote for the same body',
  }),
  request_id: Type.String({
    pattern: requestIdPattern,
    description:
      'Unix milliseconds (13 digits), a hyphen, 32 lower-case hex characters; valid for 24 hours from its milliseconds',
  }),
});
export type RunBody = Static<typeof routingRunInput>;

/** Row generators are separated by stream so check rows and generated rows never share draws. */
const checkStream = 1;
const generatedStream = 2;
/** Synthetic account numbers: 8 to 12 digits, no leading zero (US account numbers have no national format). */
const accountDigitsMin = 8;
const accountDigitsMax = 12;

type CheckRow = {
  row_type: 'check';
  index: number;
  test_cases?: RoutingTestCase[];
} & RoutingReport;
interface GeneratedRow {
  row_type: 'generated';
  index: number;
  routing_number: string;
  account_number: string;
  account_synthetic: true;
  target: RoutingTarget;
  test_cases?: RoutingTestCase[];
}
export type RunRow = CheckRow | GeneratedRow;

export function gateRun(body: RunBody, caller: CallerView): void {
  gateQuoteBody(body, caller);
  const credits = creditsOf(body);
  const expected = credits.api_calls + credits.bank_metadata;
  if (body.max_credits !== expected) {
    throw new AppError(
      'invalid_argument',
      `max_credits must equal the quote for this body: expected ${expected}, got ${body.max_credits}`,
      {
        expected_max_credits: expected,
      },
    );
  }
}

/** The request_id's claim: it lives from its own milliseconds for 24 hours, and may run 5 minutes ahead. */
export function runClaim(body: RunBody, now: Date): IdempotencyRequest {
  const issuedMs = Number(body.request_id.slice(0, body.request_id.indexOf('-')));
  const age = now.getTime() - issuedMs;
  if (age >= limits.usRouting.requestIdLifetimeMs) {
    throw new AppError(
      'invalid_argument',
      'request_id has expired (older than 24 hours): get a new quote and request_id',
      { reason: 'request_id_expired' },
    );
  }
  if (-age > limits.usRouting.requestIdFutureSkewMs) {
    throw new AppError(
      'invalid_argument',
      'request_id lies more than 5 minutes in the future: use the current Unix milliseconds',
      { reason: 'request_id_in_future' },
    );
  }
  return {
    key: `us_routing.run|${body.request_id}`,
    fingerprint: createHash('sha256').update(canonicalize(body)).digest('hex'),
    expiresAt: new Date(issuedMs + limits.usRouting.requestIdLifetimeMs),
    label: `request_id ${body.request_id}`,
  };
}

function syntheticAccountNumber(rng: Rng): string {
  const length = accountDigitsMin + rngBelow(rng, accountDigitsMax - accountDigitsMin + 1);
  return String(1 + rngBelow(rng, 9)) + rngDigits(rng, length - 1);
}

function checkRows(body: RunBody, context: RunContext<'routing' | 'requestKey'>): CheckRow[] {
  const directory = directoryOf(context);
  return (body.routing_numbers ?? []).map((input, index) => {
    const report = routingReport(input, directory);
    const row: CheckRow = { row_type: 'check', index, ...report };
    if (body.generate_tests && report.checksum.valid)
      row.test_cases = routingTestCases(rowRng(context.requestKey, index, checkStream), input);
    return row;
  });
}

function generatedRows(
  body: RunBody,
  target: RoutingTarget | undefined,
  context: RunContext<'routing' | 'requestKey'>,
  firstIndex: number,
): GeneratedRow[] {
  if (target === undefined || body.generation === undefined) return [];
  // A directory number may fail the prefix rule (Treasury's 15xxxxxxx in Fedwire): no cases for it.
  const withCases = body.generate_tests && checkRoutingNumber(target.routing_number).valid;
  return Array.from({ length: body.generation.quantity }, (_, offset) => {
    const rng = rowRng(context.requestKey, offset, generatedStream);
    const row: GeneratedRow = {
      row_type: 'generated',
      index: firstIndex + offset,
      routing_number: target.routing_number,
      account_number: syntheticAccountNumber(rng),
      account_synthetic: true,
      target,
    };
    if (withCases) row.test_cases = routingTestCases(rng, target.routing_number);
    return row;
  });
}

export function runRouting(body: RunBody, context: RunContext<'routing' | 'requestKey'>) {
  const directory = directoryOf(context);
  const generation = body.generation;
  const target =
    generation === undefined
      ? undefined
      : resolveTarget(directory, generation.target_id, generation.source_sha256);
  const credits = creditsOf(body);
  const checked = checkRows(body, context);
  return {
    ...usEnvelope(credits.api_calls),
    charged_bank_metadata_credits: credits.bank_metadata,
    request_id: body.request_id,
    quote_hash: quoteHashOf(body),
    credits,
    max_credits: body.max_credits,
    charged_credits: body.max_credits,
    source_sha256: target?.source_sha256 ?? null,
    directory_status: directoryStatusOf(directory),
    replayed: false,
    rows: [...checked, ...generatedRows(body, target, context, checked.length)],
  };
}

export const routingTestCaseSchema = Type.Object({
  case_id: Type.String(),
  category: Type.String({ description: 'valid | checksum | length | characters | prefix' }),
  input: Type.String(),
  expected_valid: Type.Boolean(),
  expected_error: Type.Union([Type.String(), Type.Null()]),
  description: Type.String(),
});

const runRowSchema = Type.Object(
  {
    row_type: Type.Union([Type.Literal('check'), Type.Literal('generated')]),
    index: Type.Integer(),
    routing_number: Type.String(),
    checksum: Type.Optional(routingReportProperties.checksum),
    prefix: Type.Optional(routingReportProperties.prefix),
    directory: Type.Optional(routingReportProperties.directory),
    payment_rails: Type.Optional(routingReportProperties.payment_rails),
    account_number: Type.Optional(
      Type.String({ description: 'Synthetic: 8-12 random digits, not a real account' }),
    ),
    account_synthetic: Type.Optional(Type.Literal(true)),
    target: Type.Optional(routingTargetSchema),
    test_cases: Type.Optional(Type.Array(routingTestCaseSchema)),
  },
  {
    description:
      "check rows: a lookup report per routing number; generated rows: the target's real number + a synthetic account",
  },
);

export const usRoutingRun = defineOp({
  name: 'us_routing.run',
  needs: ['requestKey', 'routing'] as const,
  runsOn: 'any',
  tag: 'US routing',
  summary: 'Run a quoted routing job (idempotent by request_id)',
  description:
    'The quote body plus max_credits and request_id. max_credits must equal the quote (400 with expected_max_credits ' +
    'otherwise). request_id: Unix milliseconds + "-" + 32 lower-case hex; it lives 24 hours from its milliseconds and ' +
    'may be at most 5 minutes ahead of the server clock (400 otherwise). generation.source_sha256 must still be the ' +
    'directory\'s (409 "stale quote: directory changed"). Rows: one check row per routing number (as GET ' +
    "/us/routing/{routing_number}) and generation.quantity generated rows (the target's real routing number + a " +
    'synthetic account number, deterministic per seed); with generate_tests every row with a valid number carries ' +
    'test_cases. Debits exactly the quoted credits. The same key + request_id + identical body returns the saved ' +
    'result with replayed: true and no debit, also after a restart and for concurrent duplicates (one run, one ' +
    'debit); the same request_id with another body is 409. Every refusal debits nothing.',
  http: { method: 'POST', path: '/us/routing/run', inputFrom: 'body' },
  grpc: { method: 'UsRoutingRun', wrap: 'object' },
  refusals: ['advanced_targeting_required', 'not_found'],
  access: 'key',
  input: routingRunInput,
  output: Type.Object({
    ...usEnvelopeSchemas,
    charged_bank_metadata_credits: Type.Integer({
      minimum: 0,
      description: 'Bank metadata credits this request was charged (0 on a replay)',
    }),
    request_id: Type.String(),
    quote_hash: quoteSchema.quote_hash,
    credits: quoteSchema.credits,
    max_credits: Type.Integer(),
    charged_credits: Type.Integer({
      description:
        'All credits this request debited (API + bank metadata); 0 on a replay (replayed: true), which returns the saved result and debits nothing',
    }),
    source_sha256: quoteSchema.source_sha256,
    directory_status: Type.Union([Type.Literal('loaded'), Type.Literal('not_loaded')]),
    replayed: Type.Boolean(),
    rows: Type.Array(runRowSchema),
  }),
  seedOf: (input) => input.seed,
  rowParameters: (input) => ({
    generation: input.generation?.target_id ?? null,
    tests: input.generate_tests,
  }),
  gate: gateRun,
  idempotency: runClaim,
  cost: (input) => {
    const credits = creditsOf(input);
    return { api_calls: credits.api_calls, bank_metadata: credits.bank_metadata };
  },
  rows: (input) => (input.routing_numbers?.length ?? 0) + (input.generation?.quantity ?? 0),
  run: runRouting,
});
