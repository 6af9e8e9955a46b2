import { Type } from '@sinclair/typebox';
import { checkRoutingNumber, routingNumberLength } from '../../domain/routing/index.js';
import { AppError } from '../../errors.js';
import { defineOp } from '../framework/op.js';
import { strictObject } from '../framework/schemas.js';
import { directoryOf } from './common.js';
import { limits } from '../../limits.js';
import { routingReport, routingReportProperties } from './report.js';
import { usEnvelope, usEnvelopeSchemas } from './envelope.js';

export const routingLookupInput = strictObject({
  routing_number: Type.String({
    minLength: 1,
    maxLength: limits.usRouting.routingInputCharsMax,
    description: `Nine ASCII digits; other input is a 400 whose reason names the rule (values over ${limits.usRouting.routingInputCharsMax} characters: plain 400)`,
  }),
});

/** Malformed = not nine ASCII digits: a request error (400), not a verdict. Prefix and checksum failures are verdicts. */
function refuseMalformed(routingNumber: string): void {
  const verdict = checkRoutingNumber(routingNumber);
  if (verdict.error !== 'invalid_characters' && verdict.error !== 'invalid_length') return;
  const what =
    verdict.error === 'invalid_characters'
      ? 'holds a character that is not an ASCII digit'
      : `has ${routingNumber.length} digits`;
  throw new AppError(
    'invalid_argument',
    `routing_number must be ${routingNumberLength} ASCII digits: ${JSON.stringify(routingNumber)} ${what} (${verdict.error})`,
    {
      reason: verdict.error,
    },
  );
}

export const usRoutingLookup = defineOp({
  name: 'us_routing.lookup',
  needs: ['routing'] as const,
  runsOn: 'any',
  tag: 'US routing',
  summary: 'Check one routing number and what the directory says about it',
  description:
    'One API credit. checksum (prefix rule and 3-7-1 check digit, from the number alone), prefix meaning, directory ' +
    'observations per source (published name, city, state, status, with source date and sha256) and payment_rails ' +
    '(ach from FedACH, wire from Fedwire: observed / not_observed / unknown when that file is not loaded) are separate ' +
    'objects. A checksum-valid number the directory does not list is not invalid: directory.observed is false. Without ' +
    'a directory: directory.status "not_loaded", observed null, rails unknown. Invalid prefix or check digit: 200 with ' +
    'the verdict. Non-digits or a length other than 9: 400 invalid_argument with `reason` (invalid_characters or ' +
    'invalid_length), nothing debited.',
  http: { method: 'GET', path: '/us/routing/:routing_number', inputFrom: 'query' },
  grpc: { method: 'UsRoutingLookup', wrap: 'object' },
  access: 'key',
  input: routingLookupInput,
  output: Type.Object({ ...usEnvelopeSchemas, ...routingReportProperties }),
  gate: (input) => refuseMalformed(input.routing_number),
  cost: () => ({ api_calls: 1 }),
  rows: () => 1,
  run: (input, context) => ({
    ...usEnvelope(1),
    ...routingReport(input.routing_number, directoryOf(context)),
  }),
});
