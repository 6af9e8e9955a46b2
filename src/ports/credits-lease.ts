import type { CreditKind } from '../domain/plans/plans.js';
import type { Account } from './accounts.js';

/** Whose credits a lease holds: one key's allowance of one kind in one period. */
export interface LeaseScope {
  readonly account_id: string;
  readonly period_start: string;
  readonly kind: CreditKind;
}

export interface LeaseGrant {
  /** Credits added to the lease by this grant: at most what was asked, 0 when none are left. */
  readonly granted: number;
  /** Credits of the kind neither used nor reserved (by anyone) after the grant; null when the kind has no cap. */
  readonly remaining: number | null;
}

export interface LeaseRequest {
  readonly leaseId: string;
  /** The scope's key, and the time that names its period (scope.period_start is periodOf(account, now)). */
  readonly account: Account;
  readonly now: Date;
  readonly scope: LeaseScope;
  /** Credits asked for. */
  readonly amount: number;
  /** The kind's allowance in the period; null when it has no cap. */
  readonly limit: number | null;
  /** Until when the lease lives unless renewed. */
  readonly expiresAt: Date;
}

/** What requests spent from one lease since the last record. */
export interface LeaseSpend {
  readonly lease_id: string;
  readonly scope: LeaseScope;
  readonly amount: number;
}

/**
 * The operations an authoritative credit ledger offers to lease holders (nodes, front threads). A lease's
 * granted-but-unspent credits are reserved in the ledger, so balances everywhere show them as `reserved` and no
 * holder can spend what another holds. Spent credits move from reserved to used and stay spent whatever becomes
 * of the lease.
 */
export interface LeaseLedger {
  /** Holds up to request.amount more credits for the lease (created if new) and pushes its expiry. */
  grant(request: LeaseRequest): Promise<LeaseGrant>;
  /** Records spends in one durable transaction; rejects, recording none, when a lease no longer holds its amount. */
  spend(spends: readonly LeaseSpend[], expiresAt: Date): Promise<void>;
  /** Gives back `amount` unspent credits, or every unspent one and the lease itself when amount is null. */
  giveBack(leaseId: string, amount: number | null): Promise<void>;
  /** Extends the leases' expiry; resolves with the ids still held (the others were reclaimed). */
  renew(leaseIds: readonly string[], expiresAt: Date): Promise<ReadonlySet<string>>;
  /** Returns the unspent credits of every lease that expired before `now`; resolves with how many leases. */
  reclaimExpired(now: Date): Promise<number>;
}
