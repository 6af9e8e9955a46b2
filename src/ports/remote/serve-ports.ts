/**
 * The main thread's side of remote state ports: handlers over its real StatePorts for one front thread.
 * Reservations and leader claims stay here, keyed by handle; when the front thread goes away (`release`),
 * whatever it still held is refunded or abandoned, so a dead thread never strands credits.
 */
import { AppError, fromErrorData, type ErrorData } from '../../errors.js';
import type { Account, Claim, Debits, IdempotencyRequest, Reservation, ReserveOutcome, StatePorts } from '../index.js';
import type { RemoteClaim, RemoteReservation } from './wire.js';

type Leader = Extract<Claim, { kind: 'leader' }>;

export interface ServedPorts {
  readonly handlers: Readonly<Record<string, Readonly<Record<string, (...args: never[]) => unknown>>>>;
  /** Refunds every reservation and abandons every claim the front thread still holds. */
  release(reason: string): Promise<void>;
  /** Reservations held for the front thread right now (tests, shutdown checks). */
  readonly pending: number;
}

export function servePorts(ports: StatePorts): ServedPorts {
  let next = 1;
  const reservations = new Map<number, Reservation>();
  const leaders = new Map<number, Leader>();
  const replays = new Map<number, Promise<unknown>>();
  const take = <T>(table: Map<number, T>, handle: number, what: string): T => {
    const held = table.get(handle);
    if (held === undefined) throw new AppError('internal', `${what} ${handle} is not held (settled twice?)`);
    table.delete(handle);
    return held;
  };
  const handlers = {
    authenticator: { authenticate: (rawKey: string, now: Date) => ports.authenticator.authenticate(rawKey, now) },
    meter: {
      reserve: async (account: Account, debits: Debits, now: Date): Promise<ReserveOutcome> => {
        const outcome = await ports.meter.reserve(account, debits, now);
        if (!outcome.ok) return outcome;
        const handle = next++;
        reservations.set(handle, outcome.reservation);
        const reservation: RemoteReservation = { ...outcome.reservation, handle };
        return { ok: true, reservation };
      },
      commit: (handle: number, actual?: Debits) => ports.meter.commit(take(reservations, handle, 'reservation'), actual),
      refund: (handle: number) => ports.meter.refund(take(reservations, handle, 'reservation')),
      balance: (account: Account, now: Date) => ports.meter.balance(account, now),
    },
    keyless: {
      take: (ip: string, items: number, now: Date) => ports.keyless.take(ip, items, now),
      refund: (ip: string, items: number, now: Date) => ports.keyless.refund(ip, items, now),
    },
    idempotency: {
      claim: async (keyId: string, request: IdempotencyRequest, now: Date): Promise<RemoteClaim> => {
        const claim = await ports.idempotency.claim(keyId, request, now);
        const handle = next++;
        if (claim.kind === 'leader') leaders.set(handle, claim);
        else {
          // Read by `claims.result`; a front thread that goes away first must not leave an unhandled rejection.
          claim.result.catch(() => undefined);
          replays.set(handle, claim.result);
        }
        return { kind: claim.kind, handle };
      },
    },
    claims: {
      result: (handle: number) => take(replays, handle, 'replay'),
      complete: (handle: number, result: unknown, now: Date) => take(leaders, handle, 'claim').complete(result, now),
      abandon: (handle: number, error: ErrorData) => take(leaders, handle, 'claim').abandon(fromErrorData(error)),
    },
    watches: {
      create: (keyId: string, sourceId: string, recordKey: string, now: Date) => ports.watches.create(keyId, sourceId, recordKey, now),
      list: (keyId: string) => ports.watches.list(keyId),
      find: (keyId: string, watchId: string) => ports.watches.find(keyId, watchId),
      remove: (keyId: string, watchId: string) => ports.watches.remove(keyId, watchId),
    },
  };
  return {
    handlers,
    get pending() {
      return reservations.size;
    },
    async release(reason) {
      const held = [...reservations.values()];
      reservations.clear();
      await Promise.all(held.map((reservation) => ports.meter.refund(reservation)));
      for (const leader of leaders.values()) leader.abandon(new AppError('unavailable', reason));
      leaders.clear();
      replays.clear();
    },
  };
}
