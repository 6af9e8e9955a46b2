import { Type } from '@sinclair/typebox';
import {
  defaultGenerationPrefixes,
  generateRoutingRow,
  syntheticRoutingNote,
  type RoutingRow,
} from '../../domain/routing/index.js';
import { rowRng } from '../../domain/rng.js';
import { AppError } from '../../errors.js';
import { defineOp, type RunContext } from '../framework/op.js';
import { strictObject } from '../framework/schemas.js';
import { pricingUrl, routingSeedField } from './common.js';
import { limits } from '../../limits.js';
import { usEnvelope, usEnvelopeSchemas } from './envelope.js';

export const routingGenerateInput = strictObject({
  mode: Type.Literal('synthetic', {
    description:
      'synthetic: checksum-valid numbers with valid prefixes, no bank assignment asserted',
  }),
  quantity: Type.Integer({
    minimum: 1,
    maximum: limits.usRouting.generatePaidRowsMax,
    default: 1,
    description: `1 to ${limits.usRouting.generateFreeRowsMax} rows on free keys, up to ${limits.usRouting.generatePaidRowsMax} on paid keys`,
  }),
  seed: Type.Optional(routingSeedField),
});

export const routingRowSchema = Type.Object({
  routing_number: Type.String({
    description: 'Nine digits: prefix, six random digits, 3-7-1 check digit',
  }),
  prefix: Type.String({
    description: 'First two digits: 01-12 (Federal Reserve district) or 21-32 (thrift range)',
  }),
  district: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Federal Reserve District the prefix names',
  }),
  synthetic: Type.Literal(true),
  bank_assignment: Type.Null({
    description: 'Always null: a synthetic number asserts no bank; it may coincide with a real one',
  }),
  note: Type.Literal(syntheticRoutingNote),
});

/**
 * Row i comes from rowRng(key, i), so a seeded request of 5 rows is the prefix of the same request of 100.
 * Numbers already emitted in this response are redrawn (from row i's own generator), so rows are distinct.
 */
export function generateRoutingRows(
  context: RunContext<'requestKey'>,
  quantity: number,
): RoutingRow[] {
  const emitted = new Set<string>();
  const rows: RoutingRow[] = [];
  for (let index = 0; index < quantity; index++) {
    const row = generateRoutingRow(
      rowRng(context.requestKey, context.rowStart + index),
      defaultGenerationPrefixes,
      emitted,
    );
    emitted.add(row.routing_number);
    rows.push(row);
  }
  return rows;
}

export const usRoutingGenerate = defineOp({
  name: 'us_routing.generate',
  needs: ['requestKey'] as const,
  runsOn: 'any',
  tag: 'US routing',
  summary: 'Generate synthetic, checksum-valid US ABA routing numbers',
  description:
    'Rows pass the 3-7-1 checksum and use the prefixes depository institutions hold (01-12, 21-32); the twelve ' +
    "Federal Reserve Banks' own numbers are never emitted. Every row is synthetic with bank_assignment null: without " +
    'a licensed current directory nobody can promise a synthetic number is unassigned. With a seed, row i depends only ' +
    'on (seed, i); without one every call differs. No credits are used (charged_api_credits 0); the rows are in `rows`. Free keys: up to ' +
    `${limits.usRouting.generateFreeRowsMax} rows (more is 402 payment_required); paid keys: up to ${limits.usRouting.generatePaidRowsMax}.`,
  http: { method: 'POST', path: '/us/routing/generate', inputFrom: 'body' },
  grpc: { method: 'UsRoutingGenerate', wrap: 'object' },
  access: 'key',
  input: routingGenerateInput,
  output: Type.Object({
    ...usEnvelopeSchemas,
    count: Type.Integer(),
    rows: Type.Array(routingRowSchema),
  }),
  seedOf: (input) => input.seed,
  rowParameters: (input) => ({ mode: input.mode }),
  gate: (input, caller) => {
    if (caller.paid || input.quantity <= limits.usRouting.generateFreeRowsMax) return;
    throw new AppError(
      'payment_required',
      `free keys generate at most ${limits.usRouting.generateFreeRowsMax} routing numbers per request, got ${input.quantity}`,
      {
        required_plan: 'pass24h',
        pricing_url: pricingUrl,
        max_rows: limits.usRouting.generateFreeRowsMax,
      },
    );
  },
  cost: () => ({}),
  rows: (input) => input.quantity,
  run: (input, context) => {
    const rows = generateRoutingRows(context, input.quantity);
    return { ...usEnvelope(0), count: rows.length, rows };
  },
});
