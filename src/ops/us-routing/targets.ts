import { Type } from '@sinclair/typebox';
import { defineOp } from '../framework/op.js';
import { strictObject } from '../framework/schemas.js';
import {
  directoryOf,
  directorySourceSchema,
  directoryStatusOf,
  routingTargetSchema,
} from './common.js';
import { limits } from '../../limits.js';
import { usEnvelope, usEnvelopeSchemas } from './envelope.js';

export const routingTargetsInput = strictObject({
  q: Type.Optional(
    Type.String({
      maxLength: limits.usRouting.searchQueryCharsMax,
      description: 'Routing-number prefix, or text in name, city or state (case-insensitive)',
    }),
  ),
  limit: Type.Integer({
    minimum: 1,
    maximum: limits.usRouting.targetsLimitMax,
    default: limits.usRouting.targetsLimitDefault,
  }),
  offset: Type.Integer({ minimum: 0, maximum: limits.usRouting.targetsOffsetMax, default: 0 }),
});

export const usRoutingTargets = defineOp({
  name: 'us_routing.targets',
  needs: ['routing'] as const,
  runsOn: 'any',
  tag: 'US routing',
  summary: 'List directory targets for targeted generation',
  description:
    'Searches the imported FedACH/Fedwire directory (one target per source and routing number, name/city/state/status ' +
    'exactly as published, with the source file SHA-256 and date). Quote and run name a target by target_id and ' +
    'source_sha256. next_offset is null on the last page. No directory imported: empty results and directory_status ' +
    '"not_loaded". Key required; no credits are used (listing is how a paid run is prepared).',
  http: { method: 'GET', path: '/us/routing/targets', inputFrom: 'query' },
  grpc: { method: 'UsRoutingTargets', wrap: 'object' },
  access: 'key',
  input: routingTargetsInput,
  output: Type.Object({
    ...usEnvelopeSchemas,
    results: Type.Array(routingTargetSchema),
    total: Type.Integer(),
    next_offset: Type.Union([Type.Integer(), Type.Null()]),
    directory_status: Type.Union([Type.Literal('loaded'), Type.Literal('not_loaded')]),
    sources: Type.Array(directorySourceSchema),
  }),
  cost: () => ({}),
  rows: () => 1,
  run: (input, context) => {
    const directory = directoryOf(context);
    const page = directory.search(input.q ?? '', input.limit, input.offset);
    const end = input.offset + page.results.length;
    return {
      ...usEnvelope(0),
      results: page.results,
      total: page.total,
      next_offset: end < page.total ? end : null,
      directory_status: directoryStatusOf(directory),
      sources: directory.sources(),
    };
  },
});
