import { createHash } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import type { IdempotencyRequest } from '../../ports/idempotency.js';
import { isPlanAtLeast } from '../../domain/plans/plans.js';
import { defaultGenerationPrefixes, generateRoutingRow } from '../../domain/routing/index.js';
import { rngBelow, rngDigits, rowRng } from '../../domain/rng.js';
import { loadFaker } from '../../domain/profiles/faker-loader.js';
import { AppError } from '../../errors.js';
import type { RoutingTarget } from '../../registry/routing-directory.js';
import { canonicalize } from 'json-canonicalize';
import { defineOp, type CallerView, type RunContext } from '../framework/op.js';
import { strictObject } from '../framework/schemas.js';
import {
  directoryOf,
  pricingUrl,
  profileTargetField,
  resolveTarget,
  routingSeedField,
  routingTargetSchema,
} from './common.js';
import { limits } from '../../limits.js';
import { maskTail, maskText, syntheticPerson } from './person.js';
import { usEnvelope, usEnvelopeSchemas } from './envelope.js';

export const routingProfileInput = strictObject({
  mode: Type.Union([Type.Literal('synthetic'), Type.Literal('targeted')], {
    description:
      'synthetic: synthetic routing number; targeted: the real routing number of generation.target_id (Pro or higher)',
  }),
  seed: routingSeedField,
  preview_only: Type.Boolean({
    default: false,
    description: 'true: free, masked preview of the same profile',
  }),
  confirm_credit: Type.Boolean({
    default: false,
    description: 'Must be true for a full profile, which costs one profile credit',
  }),
  generation: Type.Optional(profileTargetField),
});
type ProfileInput = Static<typeof routingProfileInput>;

const note =
  'synthetic test profile: the person, address, identifier and account are invented and identify nobody';
const accountDigits = 10; // one fixed length: the account is synthetic anyway and a fixed width masks uniformly

function gateProfile(input: ProfileInput, caller: CallerView): void {
  if (input.mode === 'synthetic' && input.generation !== undefined) {
    throw new AppError(
      'invalid_argument',
      'mode synthetic takes no generation target; use mode targeted',
    );
  }
  if (input.mode === 'targeted') {
    if (input.generation === undefined)
      throw new AppError(
        'invalid_argument',
        'mode targeted needs generation {target_id, source_sha256}',
      );
    if (caller.plan === null || !isPlanAtLeast(caller.plan, 'pro')) {
      throw new AppError(
        'advanced_targeting_required',
        'targeted profiles need the pro plan or higher',
        { required_plan: 'pro', pricing_url: pricingUrl },
      );
    }
  }
  if (!input.preview_only && !input.confirm_credit) {
    throw new AppError(
      'invalid_argument',
      'a full profile costs one profile credit: send confirm_credit: true (or preview_only: true for a free masked preview)',
    );
  }
}

/** Full profiles replay for the same key, mode, seed and target for 24 hours: one debit per profile. */
function profileClaim(input: ProfileInput, now: Date): IdempotencyRequest | undefined {
  if (input.preview_only) return undefined;
  const identity = canonicalize({
    mode: input.mode,
    seed: input.seed,
    target: input.generation ?? null,
  });
  const digest = createHash('sha256').update(identity).digest('hex');
  return {
    key: `us_routing.profile|${digest}`,
    fingerprint: digest,
    expiresAt: new Date(now.getTime() + limits.usRouting.profileReplayMs),
    label: 'profile',
  };
}

function bankAccountOf(
  input: ProfileInput,
  context: RunContext<'routing' | 'requestKey' | 'bank'>,
  target: RoutingTarget | undefined,
) {
  const rng = rowRng(context.requestKey, 0, 1);
  const account = String(1 + rngBelow(rng, 9)) + rngDigits(rng, accountDigits - 1);
  const routingNumber =
    target?.routing_number ?? generateRoutingRow(rng, defaultGenerationPrefixes).routing_number;
  return {
    routing_number: routingNumber,
    routing_source: target === undefined ? 'synthetic' : 'directory_target',
    account_number: input.preview_only ? maskTail(account) : account,
    account_synthetic: true,
    target: target ?? null,
  };
}

/** The local part masked, the reserved domain kept. */
function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${maskText(email.slice(0, at))}${email.slice(at)}`;
}

/** The synthetic person of a profile; faker is loaded on this thread's first one. */
export async function buildProfile(
  input: ProfileInput,
  context: RunContext<'routing' | 'requestKey' | 'bank'>,
) {
  await loadFaker();
  const target =
    input.generation === undefined
      ? undefined
      : resolveTarget(
          directoryOf(context),
          input.generation.target_id,
          input.generation.source_sha256,
        );
  const place =
    target?.city != null && target.state != null
      ? { city: target.city, state: target.state }
      : undefined;
  const person = syntheticPerson(rowRng(context.requestKey, 0), context.bank, place);
  const preview = input.preview_only;
  const hide = (text: string) => (preview ? maskText(text) : text);
  return {
    ...usEnvelope(0),
    synthetic: true,
    preview,
    mode: input.mode,
    seed: input.seed,
    person: {
      given_name: hide(person.given_name),
      family_name: hide(person.family_name),
      date_of_birth: preview ? `${person.date_of_birth.slice(0, 4)}-**-**` : person.date_of_birth,
      email: preview ? maskEmail(person.email) : person.email,
      ssn_like: { masked: `***-**-${person.ssn_like_last4}`, synthetic: true },
    },
    address: {
      street: preview ? `*** ${person.street.split(' ').slice(1).join(' ')}` : person.street,
      city: person.city,
      state: person.state,
      postal_code: preview ? maskTail(person.postal_code, 2) : person.postal_code,
      synthetic: true,
    },
    bank_account: bankAccountOf(input, context, target),
    charged_profile_credits: preview ? 0 : 1,
    replayed: false,
    note,
  };
}

const text = Type.String();
export const usRoutingProfile = defineOp({
  name: 'us_routing.profile',
  needs: ['requestKey', 'routing', 'bank'] as const,
  runsOn: 'any',
  tag: 'US routing',
  summary: 'Synthetic US person with a bank account for test fixtures',
  description:
    'A synthetic person from the profile engine with the US locale (name, birth date, RFC 2606 email, SSN-like ' +
    'identifier in a never-issued form shown only masked), a synthetic street address, and a synthetic account number at a synthetic routing number (mode ' +
    'synthetic) or at the real routing number of a directory target (mode targeted: Pro or higher, 402 ' +
    'advanced_targeting_required otherwise; a stale source_sha256 is 409). preview_only: free, masked, same person as ' +
    'the full profile. Full: confirm_credit must be true (400 otherwise) and costs one profile credit; the same key, ' +
    'mode, seed and target within 24 hours replays the stored profile (replayed: true) with no further debit. Spent ' +
    'profile credits: 403 generation_limit_reached.',
  http: { method: 'POST', path: '/us/routing/profile', inputFrom: 'body' },
  grpc: { method: 'UsRoutingProfile', wrap: 'object' },
  refusals: ['advanced_targeting_required', 'conflict', 'not_found'],
  access: 'key',
  input: routingProfileInput,
  output: Type.Object({
    ...usEnvelopeSchemas,
    synthetic: Type.Literal(true),
    preview: Type.Boolean(),
    mode: text,
    seed: text,
    person: Type.Object({
      given_name: text,
      family_name: text,
      date_of_birth: text,
      email: text,
      ssn_like: Type.Object({ masked: text, synthetic: Type.Literal(true) }),
    }),
    address: Type.Object({
      street: text,
      city: text,
      state: text,
      postal_code: text,
      synthetic: Type.Literal(true),
    }),
    bank_account: Type.Object({
      routing_number: text,
      routing_source: Type.Union([Type.Literal('synthetic'), Type.Literal('directory_target')]),
      account_number: text,
      account_synthetic: Type.Literal(true),
      target: Type.Union([routingTargetSchema, Type.Null()]),
    }),
    charged_profile_credits: Type.Integer({
      minimum: 0,
      description:
        'Profile credits this request was charged: 1 for a full profile, 0 for a preview or a replay',
    }),
    replayed: Type.Boolean(),
    note: text,
  }),
  seedOf: (input) => input.seed,
  rowParameters: (input) => ({ mode: input.mode, target: input.generation ?? null }),
  gate: gateProfile,
  idempotency: profileClaim,
  cost: (input) => (input.preview_only ? {} : { profiles: 1 }),
  // Spent profile credits: 403 generation_limit_reached, as for /profile (spec error table).
  exhaustedErrors: { profiles: 'generation_limit_reached' },
  rows: () => 1,
  run: buildProfile,
});
