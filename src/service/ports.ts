import type { Account } from '../accounts/account-store.js';
import type { CreditKind } from '../accounts/plans.js';
import type { Debits } from '../ops/framework/op.js';

/**
 * The narrow interfaces execute() needs from stateful parts. The LMDB implementations live in
 * src/accounts; a shared-database implementation (DESIGN.md "Beyond one machine") would plug in here.
 */
export interface Authenticator {
  authenticate(rawKey: string, now: Date): Account | null;
}

export type { Reservation } from '../accounts/meter.js';
import type { Reservation } from '../accounts/meter.js';

export type ReserveOutcome =
  | { readonly ok: true; readonly reservation: Reservation }
  | {
      readonly ok: false;
      readonly kind: CreditKind;
      readonly needed: number;
      readonly remaining: number;
      readonly resets_at: string | null;
    };

export interface CreditMeter {
  reserve(account: Account, debits: Debits, now: Date): ReserveOutcome;
  /** `actual` may be less than reserved (a stream cut short): the rest is released. */
  commit(reservation: Reservation, actual?: Debits): void;
  refund(reservation: Reservation): void;
  /** Per-kind balance (remaining includes credits held by running requests); optional for meters that cannot tell. */
  balance?(account: Account, now: Date): Readonly<Record<CreditKind, { readonly remaining: number | null }>>;
}

export interface KeylessOutcome {
  readonly ok: boolean;
  readonly remaining: number;
  readonly resets_at: string;
}

export interface KeylessLimiter {
  take(ip: string, items: number, now: Date): KeylessOutcome;
}
