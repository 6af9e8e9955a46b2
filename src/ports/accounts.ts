import type { PlanId } from '../accounts/plans.js';

/** The authenticated caller, as the request path sees it. */
export interface Account {
  readonly id: string;
  readonly plan: PlanId;
  readonly label: string | null;
  readonly created_at: string;
  /** Only a 24h Pass expires; null otherwise. */
  readonly expires_at: string | null;
}

export interface Authenticator {
  /**
   * null for a malformed, unknown or revoked key (401). Rejects with AppError payment_required for an
   * expired 24h Pass: the key is genuine but no longer buys anything (402).
   */
  authenticate(rawKey: string, now: Date): Promise<Account | null>;
  /** The account of a key id already authenticated (work that outlives its request); null when unknown or revoked. */
  accountById(id: string): Promise<Account | null>;
}
