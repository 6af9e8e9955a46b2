import type { CreditKind } from '../domain/plans/plans.js';
import type { Account } from './accounts.js';
import type { LeaseSpend } from './credits-lease.js';

export type Debits = Partial<Record<CreditKind, number>>;

/** Opaque handle of credits held for one request until it commits or refunds. */
export interface Reservation {
  readonly account_id: string;
  readonly period_start: string;
  readonly debits: Readonly<Debits>;
}

export interface Refusal {
  readonly ok: false;
  /** The first kind (in creditKinds order) that did not fit. */
  readonly kind: CreditKind;
  readonly needed: number;
  /** The kind's allowance in the current period. */
  readonly limit: number;
  readonly remaining: number;
  /** When the allowance renews; null when it never does (Free lifetime, 24h Pass). */
  readonly resets_at: string | null;
}

/**
 * Credits already committed, as a record keeps them to give them back later (also after a restart): the
 * account, the period they were taken in, and the debits.
 */
export interface CommittedCharge {
  readonly account_id: string;
  readonly period_start: string;
  readonly debits: Readonly<Debits>;
}

/**
 * What a reservation spends, in the form the ledger applies inside another store's transaction (an idempotent run's
 * saved result and its debit commit together): the ledger's own reservation with what it used, or spends from
 * leases of the ledger (a holder that reserves from leases).
 */
export type Charge =
  | { readonly kind: 'reservation'; readonly reservation: Reservation; readonly actual: Debits }
  | { readonly kind: 'leases'; readonly spends: readonly LeaseSpend[]; readonly expiresAt: Date };

/** A charge handed to another store's transaction; `settled` is told once whether that transaction committed. */
export interface HeldCharge {
  readonly charge: Charge;
  settled(committed: boolean): void;
}

export type ReserveOutcome = { readonly ok: true; readonly reservation: Reservation } | Refusal;

export interface KindBalance {
  /** null = no cap (unlimited plan). */
  readonly limit: number | null;
  /** Committed usage in the current period. */
  readonly used: number;
  /** Held by requests still running. */
  readonly reserved: number;
  /** limit - used - reserved (0 on an expired pass); null when there is no cap. */
  readonly remaining: number | null;
  readonly resets_at: string | null;
}

export type Balance = Readonly<Record<CreditKind, KindBalance>>;

/**
 * Per-period allowances, all or nothing per request. A reservation is either committed or refunded,
 * exactly once. commit resolves only when the debit is durable: a caller answers its client after that.
 */
export interface CreditMeter {
  reserve(account: Account, debits: Debits, now: Date): Promise<ReserveOutcome>;
  /** `actual` may be less than reserved (a stream cut short, a search that found fewer rows): the rest is released. */
  commit(reservation: Reservation, actual?: Debits): Promise<void>;
  refund(reservation: Reservation): Promise<void>;
  /**
   * Hands the reservation to a transaction another store runs instead of committing it here (CreditMeter.commit's
   * arguments): that store commits the charge with its own write, or refunds it when the write fails, and tells
   * `settled`. Until then the credits stay held, so nobody else can spend them.
   */
  charge(reservation: Reservation, actual?: Debits): HeldCharge;
  /**
   * Gives back credits already committed (work the service accepted and charged, then failed for its own
   * reason). Counts in the charge's period, whether or not it is still the current one; never below zero.
   */
  refundCommitted(charge: CommittedCharge): Promise<void>;
  /** The ledger's balance, read now (GET /usage, refusals). */
  balance(account: Account, now: Date): Promise<Balance>;
  /**
   * The balance a keyed answer states (X-RateLimit headers, remaining fields) once its settle resolved. A meter
   * that holds leases may answer from a balance a spend's reply carried (src/accounts/pushed-balances.ts): read
   * after the request's own debit, so what a balance call would have said then, but not a read of the ledger
   * now. Without it, `balance`.
   */
  answerBalance?(account: Account, now: Date): Promise<Balance>;
}
