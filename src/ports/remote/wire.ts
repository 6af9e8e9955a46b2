/**
 * What the state ports send across a thread boundary where their values are more than data: a
 * reservation is an identity on the main thread's Meter (it keys its live reservations by object), and a
 * claim holds a promise and two functions. Both cross as numbered handles into tables the main thread keeps.
 */
import type { Reservation } from '../credits.js';

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
