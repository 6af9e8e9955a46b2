/** Request pieces, plan gates and directory access shared by the /us/routing operations. */
import { Type, type Static } from '@sinclair/typebox';
import { isPlanAtLeast, type PlanId } from '../../domain/plans/plans.js';
import { AppError } from '../../errors.js';
import { type RoutingDirectory, type RoutingTarget } from '../../registry/routing-directory.js';
import type { CallerView, RunContext } from '../framework/op.js';
import { strictObject } from '../framework/schemas.js';
import { limits } from '../../limits.js';

export const pricingUrl = '/pricing';

export const routingSeedField = Type.String({
  minLength: 1,
  maxLength: limits.usRouting.seedCharsMax,
  description: `1 to ${limits.usRouting.seedCharsMax} characters: the same seed and parameters give the same rows; without a seed every call differs`,
});

export const routingInputField = Type.String({
  maxLength: limits.usRouting.routingInputCharsMax,
  description: `A routing number as received (nothing is trimmed); longer than ${limits.usRouting.routingInputCharsMax} characters is a 400`,
});

export const routingNumbersField = Type.Array(routingInputField, {
  minItems: 1,
  maxItems: limits.usRouting.listPaidMax,
  description: `1 to ${limits.usRouting.listFreeMax} routing numbers on free keys, up to ${limits.usRouting.listPaidMax} on paid keys`,
});

export const targetIdField = Type.String({
  pattern: '^rt_[0-9a-f]{16}$',
  description: 'target_id from GET /us/routing/targets',
});
export const sha256Field = Type.String({
  pattern: '^[0-9a-f]{64}$',
  description: 'source_sha256 of the target, as GET /us/routing/targets listed it',
});

export const generationField = strictObject(
  {
    target_id: targetIdField,
    source_sha256: sha256Field,
    quantity: Type.Integer({
      minimum: 1,
      maximum: limits.usRouting.targetedBusinessRowsMax,
      description: 'Rows for this target; one bank metadata credit each',
    }),
  },
  `Targeted generation: Pro up to ${limits.usRouting.targetedProRowsMax} rows, Business/Enterprise up to ${limits.usRouting.targetedBusinessRowsMax}`,
);
export type Generation = Static<typeof generationField>;

export const profileTargetField = strictObject(
  { target_id: targetIdField, source_sha256: sha256Field },
  'The directory target whose real routing number the profile uses (mode targeted)',
);

/** The directory the ops read: the service's, or the empty one when none is wired. */
export function directoryOf(context: RunContext<'routing'>): RoutingDirectory {
  return context.routing;
}

function paymentRequired(
  code: 'payment_required' | 'advanced_targeting_required',
  message: string,
  plan: PlanId,
  extra: Record<string, number>,
): AppError {
  return new AppError(code, message, { required_plan: plan, pricing_url: pricingUrl, ...extra });
}

/** Lists (check-list, quote, run): 10 items on free keys; more needs any paid plan (402). */
export function gateListSize(count: number, caller: CallerView, field: string): void {
  if (caller.paid || count <= limits.usRouting.listFreeMax) return;
  throw paymentRequired(
    'payment_required',
    `${field}: free keys send at most ${limits.usRouting.listFreeMax} routing numbers per request, got ${count}`,
    'pass24h',
    {
      max_items: limits.usRouting.listFreeMax,
    },
  );
}

/** Rows a plan may generate for a directory target: 0 (no targeting), Pro 150, Business and above 750. */
export function targetedRowsMaxOf(plan: PlanId | null): number {
  if (plan !== null && isPlanAtLeast(plan, 'business'))
    return limits.usRouting.targetedBusinessRowsMax;
  if (plan !== null && isPlanAtLeast(plan, 'pro')) return limits.usRouting.targetedProRowsMax;
  return 0;
}

export function gateTargeted(quantity: number, caller: CallerView): void {
  const allowed = targetedRowsMaxOf(caller.plan);
  if (quantity <= allowed) return;
  const needed: PlanId = quantity <= limits.usRouting.targetedProRowsMax ? 'pro' : 'business';
  throw paymentRequired(
    'advanced_targeting_required',
    `targeted generation of ${quantity} rows needs the ${needed} plan or higher (Pro: up to ${limits.usRouting.targetedProRowsMax} rows, Business/Enterprise: up to ${limits.usRouting.targetedBusinessRowsMax})`,
    needed,
    { max_rows: allowed },
  );
}

/**
 * The target a quote or run names, checked against the directory as it is now. A source_sha256 that no
 * loaded source has means the directory changed since the quote: 409, re-quote. A current sha256 with an
 * unknown target_id is a 404.
 */
export function resolveTarget(
  directory: RoutingDirectory,
  targetId: string,
  sourceSha256: string,
): RoutingTarget {
  const target = directory.targetById(targetId);
  const current = directory.sources().some((source) => source.source_sha256 === sourceSha256);
  if (target !== undefined && target.source_sha256 === sourceSha256) return target;
  if (!current || target !== undefined) {
    throw new AppError(
      'conflict',
      'stale quote: directory changed; list targets again and request a new quote and request_id',
      {
        stale_source_sha256: sourceSha256,
        directory_status: directory.sources().length === 0 ? 'not_loaded' : 'loaded',
      },
    );
  }
  throw new AppError(
    'not_found',
    `no directory target ${targetId} in the source with sha256 ${sourceSha256}`,
  );
}

/** 'loaded' | 'not_loaded', as every US routing response reports it. */
export function directoryStatusOf(directory: RoutingDirectory): 'loaded' | 'not_loaded' {
  return directory.sources().length === 0 ? 'not_loaded' : 'loaded';
}

export const directorySourceSchema = Type.Object({
  source_id: Type.String(),
  snapshot_date: Type.Union([Type.String(), Type.Null()]),
  source_sha256: Type.String(),
});

export const routingTargetSchema = Type.Object({
  target_id: Type.String(),
  routing_number: Type.String(),
  name: Type.Union([Type.String(), Type.Null()], { description: 'As published' }),
  city: Type.Union([Type.String(), Type.Null()], { description: 'As published' }),
  state: Type.Union([Type.String(), Type.Null()], { description: 'As published' }),
  status: Type.Union([Type.String(), Type.Null()], {
    description:
      'As published: FedACH institution status code; Fedwire funds-transfer eligibility (Y/N)',
  }),
  source_id: Type.String({ description: 'fedach or fedwire' }),
  source_sha256: Type.String({ description: 'SHA-256 of the directory file this row comes from' }),
  source_date: Type.Union([Type.String(), Type.Null()], {
    description: "The publisher's date of that file",
  }),
});
