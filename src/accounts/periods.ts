/**
 * Usage periods (clarifications §10). The clock is always an argument, so rollover and expiry are testable.
 */
import { AppError } from '../errors.js';
import { PASS_DURATION_MS, planOf, type PlanId } from '../domain/plans/plans.js';

/** What period arithmetic needs to know about an account: its plan and when it was activated. */
export interface Activation {
  readonly plan: PlanId;
  /** ISO 8601 instant the key was created; the pass and the lifetime allowance start here. */
  readonly created_at: string;
}

export interface Period {
  /** Start of the usage bucket; usage is stored under (key id, start), so a new period starts at zero. */
  readonly start: Date;
  /** When a fresh bucket begins; null when the allowance never resets (Free lifetime, 24h Pass). */
  readonly resetsAt: Date | null;
}

export function periodOf(account: Activation, now: Date): Period {
  const plan = planOf(account.plan);
  switch (plan.period) {
    case 'lifetime':
    case 'pass':
      return { start: new Date(account.created_at), resetsAt: null };
    case 'calendar_month':
      return calendarMonthOf(now);
  }
}

/** The UTC calendar month containing `now`: [first of month 00:00Z, first of next month 00:00Z). */
export function calendarMonthOf(now: Date): Period {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  // Date.UTC carries month 12 into January of the next year.
  return {
    start: new Date(Date.UTC(year, month, 1)),
    resetsAt: new Date(Date.UTC(year, month + 1, 1)),
  };
}

/** The instant a 24h Pass stops working; null for every other plan. */
export function expiresAtOf(account: Activation): Date | null {
  if (planOf(account.plan).period !== 'pass') return null;
  return new Date(Date.parse(account.created_at) + PASS_DURATION_MS);
}

export function isExpired(account: Activation, now: Date): boolean {
  const expiresAt = expiresAtOf(account);
  return expiresAt !== null && now.getTime() >= expiresAt.getTime();
}

/** Requests on an expired pass are refused with 402: the key is genuine, the purchase is used up. */
export function assertActive(account: Activation, now: Date): void {
  const expiresAt = expiresAtOf(account);
  if (expiresAt !== null && now.getTime() >= expiresAt.getTime()) {
    throw new AppError('payment_required', `24h pass expired at ${expiresAt.toISOString()}`, {
      expired_at: expiresAt.toISOString(),
    });
  }
}
