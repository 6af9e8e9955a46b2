import { createHash } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import type { RoutingDirectory } from '../../registry/routing-directory.js';
import { canonicalize } from 'json-canonicalize';
import { defineOp, type CallerView } from '../framework/op.js';
import { strictObject } from '../framework/schemas.js';
import {
  directoryOf,
  gateListSize,
  gateTargeted,
  generationField,
  resolveTarget,
  routingNumbersField,
  routingSeedField,
} from './common.js';
import { limits } from '../../limits.js';
import { usEnvelope, usEnvelopeSchemas } from './envelope.js';

/** The body a quote prices; a run sends the same fields plus max_credits and request_id. */
export const quoteBodyProperties = {
  routing_numbers: Type.Optional(routingNumbersField),
  generate_tests: Type.Boolean({
    default: false,
    description:
      'Attach rows[].test_cases (edge cases from the 3-7-1 arithmetic); no extra credits',
  }),
  seed: Type.Optional(routingSeedField),
  generation: Type.Optional(generationField),
};

export const routingQuoteInput = strictObject(quoteBodyProperties);
export type QuoteBody = Static<typeof routingQuoteInput>;

export interface Quote {
  readonly credits: { readonly api_calls: number; readonly bank_metadata: number };
  readonly max_credits: number;
  readonly rows: number;
  readonly source_sha256: string | null;
  readonly quote_hash: string;
}

/** Only the quote's own fields, so a run body (quote + max_credits + request_id) hashes like its quote. */
export function quoteHashOf(body: QuoteBody): string {
  const fields = {
    routing_numbers: body.routing_numbers,
    generate_tests: body.generate_tests,
    seed: body.seed,
    generation: body.generation,
  };
  return createHash('sha256').update(canonicalize(fields)).digest('hex');
}

/** Credits as the spec meters a run: one API credit per routing number checked, one bank metadata credit per targeted row. */
export function creditsOf(body: QuoteBody): Quote['credits'] {
  return {
    api_calls: body.routing_numbers?.length ?? 0,
    bank_metadata: body.generation?.quantity ?? 0,
  };
}

export function gateQuoteBody(body: QuoteBody, caller: CallerView): void {
  if (body.routing_numbers === undefined && body.generation === undefined) {
    throw new AppError(
      'invalid_argument',
      'nothing to price: send routing_numbers, generation, or both',
    );
  }
  if (body.routing_numbers !== undefined)
    gateListSize(body.routing_numbers.length, caller, 'routing_numbers');
  if (body.generation !== undefined) gateTargeted(body.generation.quantity, caller);
}

/** The quote for a body against the directory as it is now (a stale target is 409 here already). */
export function quoteOf(body: QuoteBody, directory: RoutingDirectory): Quote {
  const target =
    body.generation === undefined
      ? undefined
      : resolveTarget(directory, body.generation.target_id, body.generation.source_sha256);
  const credits = creditsOf(body);
  return {
    credits,
    max_credits: credits.api_calls + credits.bank_metadata,
    rows: credits.api_calls + credits.bank_metadata,
    source_sha256: target?.source_sha256 ?? null,
    quote_hash: quoteHashOf(body),
  };
}

export const quoteSchema = {
  credits: Type.Object({ api_calls: Type.Integer(), bank_metadata: Type.Integer() }),
  max_credits: Type.Integer({
    description: 'credits.api_calls + credits.bank_metadata: the run must send exactly this',
  }),
  rows: Type.Integer({
    description: 'Rows the run returns: one per routing number plus generation.quantity',
  }),
  source_sha256: Type.Union([Type.String(), Type.Null()], {
    description: "The generation target's current source sha256, if any",
  }),
  quote_hash: Type.String({
    description:
      'SHA-256 of the canonical quote body (routing_numbers, generate_tests, seed, generation)',
  }),
};

export const usRoutingQuote = defineOp({
  name: 'us_routing.quote',
  needs: ['routing'] as const,
  runsOn: 'any',
  tag: 'US routing',
  summary: 'Price a routing run without debiting',
  description:
    'What POST /us/routing/run will cost for the same body; nothing is debited. credits.api_calls = number of ' +
    'routing_numbers (one per number checked), credits.bank_metadata = generation.quantity (one per targeted row); ' +
    'max_credits is their sum and the run must send it unchanged. routing_numbers: up to ' +
    `${limits.usRouting.listFreeMax} on free keys (402 payment_required above), ${limits.usRouting.listPaidMax} on paid keys. Targeted ` +
    `generation: Pro up to ${limits.usRouting.targetedProRowsMax} rows, Business/Enterprise up to ${limits.usRouting.targetedBusinessRowsMax} ` +
    "(402 advanced_targeting_required otherwise). A generation whose source_sha256 is no longer the directory's is 409 " +
    '"stale quote: directory changed"; an unknown target_id in a current source is 404.',
  http: { method: 'POST', path: '/us/routing/quote', inputFrom: 'body' },
  grpc: { method: 'UsRoutingQuote', wrap: 'object' },
  refusals: ['advanced_targeting_required', 'conflict', 'not_found'],
  access: 'key',
  input: routingQuoteInput,
  output: Type.Object({ ...usEnvelopeSchemas, ...quoteSchema }),
  gate: gateQuoteBody,
  cost: () => ({}),
  rows: () => 1,
  run: (input, context) => ({ ...usEnvelope(0), ...quoteOf(input, directoryOf(context)) }),
});
