import type { Capability, Placement, RunContext } from '../../contract/capabilities.js';
import type { Op } from '../framework/op.js';
import { defineOp } from '../framework/op.js';
import {
  generationsLeft,
  profileCost,
  profileExhaustedErrors,
  profileRules,
  shapeRule,
} from './common.js';
import { gateProfileInput, profileInput, type ProfileInput } from './request.js';
import { profileEnvelopeSchema } from './shapes.js';

/**
 * gRPC carries the free-form additional_info as JSON text (additional_info_json): proto3 has no untyped object
 * besides google.protobuf.Struct, whose wire form clients find awkward. Text that is not a JSON object is passed
 * on as is, so the request validator answers 400 for it.
 */
export function decodeProfileMessage(message: Record<string, unknown>): Record<string, unknown> {
  const { additional_info_json: text, ...rest } = message;
  if (typeof text !== 'string' || text === '') return rest;
  try {
    return { ...rest, additional_info: JSON.parse(text) as unknown };
  } catch {
    return { ...rest, additional_info: text };
  }
}

/** What differs between the profile endpoints: name, route, RPC, where they run, what they say, how they answer. */
export interface ProfileEndpoint<N extends Capability, O> {
  readonly name: string;
  readonly needs: readonly N[];
  readonly runsOn: Placement;
  readonly summary: string;
  /** The endpoint's own text; the shape rule and the cost/error rules both endpoints share are appended. */
  readonly description: string;
  readonly path: string;
  readonly rpc: string;
  readonly run: (input: ProfileInput, context: RunContext<N>) => O | Promise<O>;
}

/**
 * /profile and /ai-profile take the same request, answer the same envelope and cost the same: everything but
 * the endpoint's own fields is declared here once, so the two cannot drift apart.
 */
export function defineProfileOp<N extends Capability, O>(
  endpoint: ProfileEndpoint<N, O>,
): Op<typeof profileInput, O, N> {
  return defineOp({
    name: endpoint.name,
    needs: endpoint.needs,
    runsOn: endpoint.runsOn,
    tag: 'Profiles',
    summary: endpoint.summary,
    description: `${endpoint.description} ${shapeRule} ${profileRules}`,
    http: { method: 'POST', path: endpoint.path, inputFrom: 'body' },
    grpc: {
      method: endpoint.rpc,
      wrap: 'object',
      decode: decodeProfileMessage,
      jsonText: ['additional_info'],
    },
    access: 'key',
    input: profileInput,
    output: profileEnvelopeSchema,
    seedOf: (input) => input.seed,
    gate: (input) => gateProfileInput(input),
    cost: profileCost,
    exhaustedErrors: profileExhaustedErrors,
    // A bank context (IBAN, BIC, bank name or city) that matches no registry bank: nothing is substituted.
    refusals: ['target_no_match'],
    remainingField: generationsLeft,
    rows: () => 1,
    run: endpoint.run,
  });
}
