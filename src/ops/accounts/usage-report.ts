/** The usage report of GET /usage, kept free of schema code so `ibanqa keys list` loads only this. */
import { periodOf } from '../../accounts/periods.js';
import { creditKinds, planOf, type CreditKind } from '../../domain/plans/plans.js';
import type { KeyUsage } from '../../ports/usage.js';

export interface CreditBalance {
  readonly allowance: number | null;
  readonly used: number;
  readonly reserved: number;
  readonly remaining: number | null;
  readonly period_end: string | null;
}

/** The usage report of one key: what the ledger holds now, in the shape of the spec's plan table. */
export function usageReport(usage: KeyUsage) {
  const { account, balance, at } = usage;
  const plan = planOf(account.plan);
  const period = periodOf(account, at);
  const end = period.resetsAt?.toISOString() ?? account.expires_at;
  const credits = Object.fromEntries(
    creditKinds.map((kind) => {
      const entry = balance[kind];
      return [
        kind,
        {
          allowance: entry.limit,
          used: entry.used,
          reserved: entry.reserved,
          remaining: entry.remaining,
          period_end: end,
        },
      ];
    }),
  ) as Record<CreditKind, CreditBalance>;
  return {
    success: true as const,
    key_id: account.id,
    plan: account.plan,
    plan_name: plan.name,
    period: { kind: plan.period, start: period.start.toISOString(), end },
    expires_at: account.expires_at,
    credits,
  };
}
