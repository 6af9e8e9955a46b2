import { defineOp } from '../framework/op.js';
import { builtinProfile } from './builtin.js';
import { generationsLeft, profileCost, profileExhaustedErrors, profileRules, shapeRule } from './common.js';
import { gateProfileInput, profileInput } from './request.js';
import { profileEnvelopeSchema } from './shapes.js';

export const profileGenerate = defineOp({
  name: 'profile.generate',
  needs: ['requestKey', 'bank'] as const,
  runsOn: 'any',
  tag: 'Profiles',
  summary: 'Synthetic QA profile (built-in engine)',
  description:
    'A synthetic person of one country from the built-in engine (faker locales per country; provider "builtin"), ' +
    `with a quality score. ${shapeRule} ${profileRules}`,
  http: { method: 'POST', path: '/profile', inputFrom: 'body' },
  grpc: { method: 'Profile', wrap: 'object', decode: decodeProfileMessage, jsonText: ['additional_info'] },
  access: 'key',
  input: profileInput,
  output: profileEnvelopeSchema,
  seedOf: (input) => input.seed,
  gate: (input) => gateProfileInput(input),
  cost: profileCost,
  exhaustedErrors: profileExhaustedErrors,
  remainingField: generationsLeft,
  rows: () => 1,
  run: builtinProfile,
});

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
