/** What every bank-intelligence and registry operation shares: plan gates and the envelope. */
import { Type } from '@sinclair/typebox';
import { isPlanAtLeast, planOf, type PlanId } from '../../domain/plans/plans.js';
import { AppError } from '../../errors.js';
import type { RegistryReader } from '../../registry/store/registry-reader.js';
import type { RegistryIdentity } from '../../registry/store/types.js';
import type { CallerView } from '../framework/op.js';
import { premiumUnlockUrl } from './bank-fields.js';

/**
 * Plan gate. 402 for access that is bought (lookup from Starter, search from Pro, export), 403 for the
 * access levels the spec answers with 403 (provenance: sources; snapshot diffs: changes, time machine).
 */
export function requirePlan(
  caller: CallerView,
  minimum: PlanId,
  refusal: 'payment_required' | 'permission_denied',
  what: string,
): void {
  if (caller.plan !== null && isPlanAtLeast(caller.plan, minimum)) return;
  throw new AppError(refusal, `${what} needs the ${planOf(minimum).name} plan or higher`, {
    required_plan: minimum,
    pricing_url: premiumUnlockUrl,
  });
}

/** Spec: Business-level responses add source attribution (provenance). */
export function seesProvenance(caller: CallerView): boolean {
  return caller.plan !== null && isPlanAtLeast(caller.plan, 'business');
}

export interface Envelope {
  readonly success: true;
  readonly registry: RegistryIdentity;
  readonly registry_generated_at: string | null;
  readonly charged_api_credits: number;
}

export function envelopeOf(registry: RegistryReader, chargedApiCredits: number): Envelope {
  const identity = registry.identity();
  return {
    success: true,
    registry: identity,
    registry_generated_at: identity.generated_at,
    charged_api_credits: chargedApiCredits,
  };
}

export const registryIdentitySchema = Type.Object(
  {
    fingerprint: Type.String({
      description:
        "SHA-256 over every source's current snapshot, 16 hex characters: pin it for reproducible tests",
    }),
    version: Type.Integer({ description: 'Count of committed imports; grows with every import' }),
    generated_at: Type.Union([Type.String(), Type.Null()], {
      description: 'When the last import committed',
    }),
  },
  { description: 'The exact registry data a response came from' },
);

export const envelopeSchemas = {
  success: Type.Literal(true),
  registry: registryIdentitySchema,
  registry_generated_at: Type.Union([Type.String(), Type.Null()], {
    description: 'When the registry data was last imported (date-time)',
  }),
  charged_api_credits: Type.Integer({ description: 'API credits this request was charged' }),
};
