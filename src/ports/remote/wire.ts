/**
 * What the state ports send across a thread boundary where their values are more than data: a
 * reservation is an identity on the main thread's Meter (it keys its live reservations by object), and a
 * claim holds a promise and two functions. Both cross as numbered handles into tables the main thread keeps.
 */
import type { ErrorData } from '../../errors.js';
import type { Reservation } from '../credits.js';

/** The port names the remote proxies call and the main thread serves. */
export const statePortNames = ['authenticator', 'meter', 'keyless', 'idempotency', 'claims', 'watches'] as const;

/** A reservation as a front thread holds it: the Meter's fields, plus the handle of the original on the main thread. */
export interface RemoteReservation extends Reservation {
  readonly handle: number;
}

export type RemoteClaim =
  | { readonly kind: 'replay'; readonly ok: true; readonly result: unknown }
  | { readonly kind: 'replay'; readonly ok: false; readonly error: ErrorData }
  | { readonly kind: 'leader'; readonly handle: number };
