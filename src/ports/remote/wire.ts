/**
 * What the state ports send across a thread boundary where their values are more than data: a
 * reservation is an identity on the main thread's Meter (it keys its live reservations by object), and a
 * claim holds a promise and two functions. Both cross as numbered handles into tables the main thread keeps.
 */
import type { Balance, Reservation } from '../credits.js';

/** The port names the remote proxies call and the main thread serves. */
export const statePortNames = [
  'authenticator',
  'meter',
  'keyless',
  'idempotency',
  'claims',
  'watches',
  'leases',
] as const;

/** What the main thread calls on a front thread to push key changes (src/accounts/auth-cache.ts). */
export const keyChangesPort = 'keys';

/** A reservation as a front thread holds it: the Meter's fields, plus the handle of the original on the main thread. */
export interface RemoteReservation extends Reservation {
  readonly handle: number;
}

/**
 * A claim's kind and handle. A replay's result is fetched with a second call (`claims.result`): a replay of
 * a leader still running must not hold up its own claim until the leader settles.
 */
export interface RemoteClaim {
  readonly kind: 'replay' | 'leader';
  readonly handle: number;
}

/**
 * A key's balance as the main thread's ledger held it at `at`, sent to a front thread with the reply of a lease
 * grant, spend or return of that key: the front thread answers its X-RateLimit headers from it, no call per request.
 */
export interface BalanceNote {
  readonly account_id: string;
  readonly at: Date;
  readonly balance: Balance;
}

/** A lease operation's reply as it crosses: its value, plus the balances of the keys it touched. */
export interface NotedReply<T> {
  readonly value: T;
  readonly balances: readonly BalanceNote[];
}
