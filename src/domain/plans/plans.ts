/**
 * Plans and their per-period allowances (spec "Limits: Plans"; periods from clarifications §10).
 * Everything the spec leaves open is decided here, once, in a commented constant.
 */

/** Ordered by rank: the plan gate compares positions in this list. */
export const planIds = [
  'free',
  'pass24h',
  'starter',
  'pro',
  'business',
  'enterprise',
  'unlimited',
] as const;
export type PlanId = (typeof planIds)[number];

/**
 * What a request can spend. api_calls, profiles, bic_reveals and exports are the spec's columns;
 * bank_metadata and statements are debited by operations the spec meters but gives no allowance for.
 */
export const creditKinds = [
  'api_calls',
  'profiles',
  'bic_reveals',
  'exports',
  'bank_metadata',
  'statements',
] as const;
export type CreditKind = (typeof creditKinds)[number];

/**
 * How usage is bucketed in time (clarifications §10):
 * - lifetime: one bucket from key creation, never resets (Free);
 * - pass: one bucket for the 24 hours from activation (key creation); afterwards the pass has expired;
 * - calendar_month: a fresh bucket on the first of every month, 00:00 UTC.
 */
export type PeriodKind = 'lifetime' | 'pass' | 'calendar_month';

/** A limit of null means "no cap": usage is still counted. */
export type Allowances = Readonly<Record<CreditKind, number | null>>;

export interface Plan {
  readonly id: PlanId;
  readonly name: string;
  /** Price as the spec lists it; null for the operator's unlimited plan, which is not sold. */
  readonly price: string | null;
  readonly paid: boolean;
  readonly period: PeriodKind;
  readonly allowances: Allowances;
  /** Largest bulk-dataset quantity; null = no bulk access at all (Free). */
  readonly bulkRowCap: number | null;
}

/** The pass lasts this long from activation (spec: "per 24h"; clarifications §10: from activation). */
export const PASS_DURATION_MS = 24 * 60 * 60 * 1000;

/**
 * Statement-review allowance per period. The spec meters statement uploads but lists no allowance:
 * OUR DECISION. Kept small because a statement review (PDF/image text extraction) costs far more
 * server time than any other metered operation.
 */
const STATEMENTS = {
  free: 1,
  pass24h: 3,
  starter: 20,
  pro: 100,
  business: 500,
  enterprise: 2_000,
} as const;

/**
 * Bulk-dataset row caps (spec "Bounds"). Business is not stated in the spec: OUR DECISION, the same
 * 10,000 as Pro and Enterprise. Unlimited keeps the same cap: it lifts credit limits, not request size.
 */
const BULK_ROW_CAP = {
  pass24h: 40,
  starter: 500,
  pro: 10_000,
  business: 10_000,
  enterprise: 10_000,
  unlimited: 10_000,
} as const;

/**
 * bank_metadata has no column in the spec: OUR DECISION, it equals the plan's BIC-reveal allowance,
 * because both meter the same thing (real bank data attached to a row).
 */
function allowances(
  apiCalls: number,
  profiles: number,
  bicReveals: number,
  exports: number,
  statements: number,
): Allowances {
  return {
    api_calls: apiCalls,
    profiles,
    bic_reveals: bicReveals,
    exports,
    bank_metadata: bicReveals,
    statements,
  };
}

/** The operator's own plan (spec: "an older statement lists ... an unlimited plan"): counts usage, never refuses. */
const UNCAPPED: Allowances = {
  api_calls: null,
  profiles: null,
  bic_reveals: null,
  exports: null,
  bank_metadata: null,
  statements: null,
};

const plans: Readonly<Record<PlanId, Plan>> = {
  free: {
    id: 'free',
    name: 'Free',
    price: null,
    paid: false,
    period: 'lifetime',
    allowances: allowances(50, 5, 0, 0, STATEMENTS.free),
    bulkRowCap: null,
  },
  pass24h: {
    id: 'pass24h',
    name: '24h Pass',
    price: '4.99 USD one-time',
    paid: true,
    period: 'pass',
    allowances: allowances(100, 10, 40, 3, STATEMENTS.pass24h),
    bulkRowCap: BULK_ROW_CAP.pass24h,
  },
  starter: {
    id: 'starter',
    name: 'Starter',
    price: '19 USD per month',
    paid: true,
    period: 'calendar_month',
    allowances: allowances(2_000, 200, 200, 50, STATEMENTS.starter),
    bulkRowCap: BULK_ROW_CAP.starter,
  },
  pro: {
    id: 'pro',
    name: 'Pro',
    price: '29 USD per month',
    paid: true,
    period: 'calendar_month',
    allowances: allowances(10_000, 1_000, 2_000, 500, STATEMENTS.pro),
    bulkRowCap: BULK_ROW_CAP.pro,
  },
  business: {
    id: 'business',
    name: 'Business',
    price: '99 USD per month',
    paid: true,
    period: 'calendar_month',
    allowances: allowances(100_000, 10_000, 10_000, 2_000, STATEMENTS.business),
    bulkRowCap: BULK_ROW_CAP.business,
  },
  enterprise: {
    id: 'enterprise',
    name: 'Enterprise',
    price: '190 USD per month',
    paid: true,
    period: 'calendar_month',
    allowances: allowances(250_000, 25_000, 25_000, 5_000, STATEMENTS.enterprise),
    bulkRowCap: BULK_ROW_CAP.enterprise,
  },
  unlimited: {
    id: 'unlimited',
    name: 'Unlimited',
    price: null,
    paid: true,
    period: 'calendar_month',
    allowances: UNCAPPED,
    bulkRowCap: BULK_ROW_CAP.unlimited,
  },
};

export function isPlanId(text: string): text is PlanId {
  return (planIds as readonly string[]).includes(text);
}

export function planOf(id: PlanId): Plan {
  return plans[id];
}

/** Gate check: free < pass24h < starter < pro < business < enterprise < unlimited. */
export function isPlanAtLeast(plan: PlanId, minimum: PlanId): boolean {
  return planIds.indexOf(plan) >= planIds.indexOf(minimum);
}
