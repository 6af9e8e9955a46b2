/**
 * StatePorts of a front thread: every method is a call to the main thread's real ports (src/ports/remote/
 * serve-ports.ts), so the main thread's single Meter stays the only writer of usage and reservations stay
 * exact however many threads take requests. The ports were asynchronous already; only the handles differ.
 */
import { AppError, toAppError, toErrorData } from '../../errors.js';
import type { Claim, Debits, HeldCharge, Reservation, StatePorts } from '../index.js';
import type { Watch } from '../watches.js';
import type { LeaseLedger } from '../credits-lease.js';
import type { CheckedAccount, KeyResolver } from '../key-resolver.js';
import type { BalanceNote, NotedReply, RemoteClaim, RemoteReservation } from './wire.js';

/** The call half of an RPC link (src/transport/http/threads/rpc.ts). */
export interface RemoteCaller {
  call<T>(port: string, method: string, args?: readonly unknown[]): Promise<T>;
}

function handleOf(reservation: Reservation): number {
  const handle = (reservation as Partial<RemoteReservation>).handle;
  if (typeof handle !== 'number')
    throw new AppError('internal', 'a reservation that did not come from the remote meter');
  return handle;
}

function claimOf(remote: RemoteClaim, link: RemoteCaller): Claim {
  if (remote.kind === 'leader') {
    return {
      kind: 'leader',
      // The charge crosses with the result (a reservation's handle, or lease spends): the main thread saves and
      // debits in one transaction, and this side hears whether it committed.
      complete: async (result, now, held?: HeldCharge) => {
        try {
          await link.call('claims', 'complete', [remote.handle, result, now, held?.charge]);
        } catch (error) {
          held?.settled(false);
          throw error;
        }
        held?.settled(true);
      },
      abandon: (error) => {
        // Fire and forget, as the local abandon: the main thread settles the claim's waiting replays.
        link
          .call('claims', 'abandon', [remote.handle, toErrorData(toAppError(error))])
          .catch(() => undefined);
      },
    };
  }
  const result = link.call<unknown>('claims', 'result', [remote.handle]);
  // A replay refused before it reads its result (its reservation) must not surface as an unhandled rejection.
  result.catch(() => undefined);
  return { kind: 'replay', result };
}

export function remotePorts(link: RemoteCaller): StatePorts {
  return {
    authenticator: {
      authenticate: (rawKey, now) => link.call('authenticator', 'authenticate', [rawKey, now]),
      accountById: (id) => link.call('authenticator', 'accountById', [id]),
    },
    meter: {
      reserve: (account, debits, now) => link.call('meter', 'reserve', [account, debits, now]),
      commit: (reservation, actual?: Debits) =>
        link.call('meter', 'commit', [handleOf(reservation), actual]),
      refund: (reservation) => link.call('meter', 'refund', [handleOf(reservation)]),
      // Crosses with a claim's completion; the main thread takes the handle there.
      charge: (reservation, actual) => ({
        charge: { kind: 'reservation', reservation, actual: actual ?? reservation.debits },
        settled: () => undefined,
      }),
      refundCommitted: (charge) =>
        link.call('meter', 'refundCommitted', [
          {
            account_id: charge.account_id,
            period_start: charge.period_start,
            debits: charge.debits,
          },
        ]),
      balance: (account, now) => link.call('meter', 'balance', [account, now]),
    },
    keyless: {
      take: (ip, items, now) => link.call('keyless', 'take', [ip, items, now]),
      refund: (ip, items, now) => link.call('keyless', 'refund', [ip, items, now]),
    },
    idempotency: {
      claim: async (keyId, request, now) =>
        claimOf(await link.call<RemoteClaim>('idempotency', 'claim', [keyId, request, now]), link),
    },
    watches: {
      create: (keyId, sourceId, recordKey, now) =>
        link.call<Watch>('watches', 'create', [keyId, sourceId, recordKey, now]),
      list: (keyId) => link.call<Watch[]>('watches', 'list', [keyId]),
      find: (keyId, watchId) => link.call<Watch>('watches', 'find', [keyId, watchId]),
      remove: (keyId, watchId) => link.call<Watch>('watches', 'remove', [keyId, watchId]),
    },
    // A front thread writes nothing itself: every write is the main thread's, which flushes its own.
    flush: async () => undefined,
  };
}

/**
 * The main thread's lease operations, for a front thread that reserves from leases (src/accounts/meter-leased.ts):
 * a grant per top-up and one spend per event-loop turn cross the port, not a reserve and a commit per request. The
 * balances their replies carry go to `onBalances` before the operation resolves, so a request whose commit resolved
 * finds its own debit in them.
 */
export function remoteLeaseLedger(
  link: RemoteCaller,
  onBalances: (notes: readonly BalanceNote[]) => void = () => undefined,
): LeaseLedger {
  const noted = async <T>(reply: Promise<NotedReply<T>>): Promise<T> => {
    const { value, balances } = await reply;
    onBalances(balances);
    return value;
  };
  return {
    grant: (request) => noted(link.call('leases', 'grant', [request])),
    spend: (spends, expiresAt) => noted(link.call('leases', 'spend', [spends, expiresAt])),
    giveBack: (leaseId, amount) => noted(link.call('leases', 'giveBack', [leaseId, amount])),
    renew: async (leaseIds, expiresAt) =>
      new Set(await link.call<string[]>('leases', 'renew', [leaseIds, expiresAt])),
    reclaimExpired: (now) => link.call('leases', 'reclaimExpired', [now]),
  };
}

/** A front thread's key cache asks the main thread's (`authenticator.resolve`), keeping the age it is given. */
export function remoteKeyResolver(link: RemoteCaller): KeyResolver {
  return {
    resolve: (rawKey, now) =>
      link.call<CheckedAccount | null>('authenticator', 'resolve', [rawKey, now]),
  };
}
