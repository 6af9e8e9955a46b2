/**
 * The main thread's side of remote state ports: handlers over its real StatePorts for one front thread.
 * Reservations and claims stay here, keyed by handle; when the front thread goes away (`release`),
 * whatever it still held is refunded or abandoned, so a dead thread never strands credits.
 */
import { AppError, fromErrorData, type ErrorData } from '../../errors.js';
import type {
  Account,
  Charge,
  Claim,
  CommittedCharge,
  Debits,
  HeldCharge,
  IdempotencyRequest,
  Reservation,
  ReserveOutcome,
  StatePorts,
} from '../index.js';
import type { LeaseLedger, LeaseRequest, LeaseSpend } from '../credits-lease.js';
import type { KeyResolver } from '../key-resolver.js';
import type { BalanceNote, NotedReply, RemoteClaim, RemoteReservation } from './wire.js';

type Leader = Extract<Claim, { kind: 'leader' }>;

export interface ServedPorts {
  readonly handlers: Readonly<
    Record<string, Readonly<Record<string, (...args: never[]) => unknown>>>
  >;
  /** Refunds every reservation and abandons every claim the front thread still holds. */
  release(reason: string): Promise<void>;
  /** Reservations held for the front thread right now (tests, shutdown checks). */
  readonly pending: number;
}

/** Values held for a front thread under numbered handles; each handle is taken exactly once. */
class Handles<T> {
  private next = 1;
  readonly held = new Map<number, T>();

  put(value: T): number {
    const handle = this.next++;
    this.held.set(handle, value);
    return handle;
  }

  take(handle: number): T {
    const value = this.held.get(handle);
    if (value === undefined)
      throw new AppError('internal', `handle ${handle} is not held (settled twice?)`);
    this.held.delete(handle);
    return value;
  }
}

/**
 * A front thread's charge as the main thread's claim commits it: a reservation the front thread holds here by
 * handle is charged through the main thread's meter; lease spends pass as they are (they name leases of the
 * ledger the main thread's idempotency store writes with).
 */
function localCharge(
  ports: StatePorts,
  reservations: Handles<Reservation>,
  charge: Charge,
): HeldCharge {
  if (charge.kind === 'leases') return { charge, settled: () => undefined };
  const handle = (charge.reservation as Partial<RemoteReservation>).handle;
  if (typeof handle !== 'number')
    throw new AppError('internal', 'a charged reservation that did not come from the remote meter');
  return ports.meter.charge(reservations.take(handle), charge.actual);
}

function claimHandlers(
  ports: StatePorts,
  leaders: Handles<Leader>,
  replays: Handles<Promise<unknown>>,
  reservations: Handles<Reservation>,
) {
  return {
    idempotency: {
      claim: async (
        keyId: string,
        request: IdempotencyRequest,
        now: Date,
      ): Promise<RemoteClaim> => {
        const claim = await ports.idempotency.claim(keyId, request, now);
        if (claim.kind === 'leader') return { kind: 'leader', handle: leaders.put(claim) };
        // Read by `claims.result`; a front thread that goes away first must not leave an unhandled rejection.
        claim.result.catch(() => undefined);
        return { kind: 'replay', handle: replays.put(claim.result) };
      },
    },
    claims: {
      result: (handle: number) => replays.take(handle),
      complete: (handle: number, result: unknown, now: Date, charge?: Charge) => {
        const leader = leaders.take(handle);
        let held: HeldCharge | undefined;
        try {
          held = charge === undefined ? undefined : localCharge(ports, reservations, charge);
        } catch (error) {
          leader.abandon(error);
          throw error;
        }
        return leader.complete(result, now, held);
      },
      abandon: (handle: number, error: ErrorData) =>
        leaders.take(handle).abandon(fromErrorData(error)),
    },
  };
}

/** The balances of the keys of `leaseIds`, read now: what a lease operation's reply carries to the front thread. */
async function balancesOf(
  meter: StatePorts['meter'],
  held: ReadonlyMap<string, Account>,
  leaseIds: Iterable<string>,
): Promise<BalanceNote[]> {
  const accounts = new Map<string, Account>();
  for (const leaseId of leaseIds) {
    const account = held.get(leaseId);
    if (account !== undefined) accounts.set(account.id, account);
  }
  const at = new Date();
  return Promise.all(
    [...accounts.values()].map(async (account) => ({
      account_id: account.id,
      at,
      balance: await meter.balance(account, at),
    })),
  );
}

/**
 * The lease operations of the main thread's ledger for one front thread, which holds leases of it. Each reply that
 * changed a key's ledger row carries the key's balance read after the change, so the front thread's X-RateLimit
 * headers need no call of their own: a request's debit is in the balance its turn's spend brings back.
 */
function leaseHandlers(
  leases: LeaseLedger,
  meter: StatePorts['meter'],
  held: Map<string, Account>,
) {
  // A balance that cannot be read must not fail an operation that succeeded (a recorded spend): the front thread
  // then reads the balance itself.
  const noted = async <T>(value: T, leaseIds: Iterable<string>): Promise<NotedReply<T>> => ({
    value,
    balances: await balancesOf(meter, held, leaseIds).catch(() => []),
  });
  return {
    grant: async (request: LeaseRequest) => {
      held.set(request.leaseId, request.account);
      return noted(await leases.grant(request), [request.leaseId]);
    },
    spend: async (spends: readonly LeaseSpend[], expiresAt: Date) => {
      await leases.spend(spends, expiresAt);
      return noted(
        undefined,
        spends.map((spend) => spend.lease_id),
      );
    },
    giveBack: async (leaseId: string, amount: number | null) => {
      await leases.giveBack(leaseId, amount);
      const reply = await noted(undefined, [leaseId]);
      if (amount === null) held.delete(leaseId);
      return reply;
    },
    // A Set does not cross the port as the caller reads it: ids as an array.
    renew: async (leaseIds: readonly string[], expiresAt: Date) => [
      ...(await leases.renew(leaseIds, expiresAt)),
    ],
    reclaimExpired: (now: Date) => leases.reclaimExpired(now),
  };
}

/** `resolve` only with a key cache: a front thread's cache must be answered with the age of a real read. */
function authenticatorHandlers(authenticator: StatePorts['authenticator'], keys?: KeyResolver) {
  return {
    authenticate: (rawKey: string, now: Date) => authenticator.authenticate(rawKey, now),
    accountById: (id: string) => authenticator.accountById(id),
    ...(keys === undefined
      ? {}
      : { resolve: (rawKey: string, now: Date) => keys.resolve(rawKey, now) }),
  };
}

/** The meter without leases: each reservation crosses as a handle into `reservations`. */
function meterHandlers(meter: StatePorts['meter'], reservations: Handles<Reservation>) {
  return {
    reserve: async (account: Account, debits: Debits, now: Date): Promise<ReserveOutcome> => {
      const outcome = await meter.reserve(account, debits, now);
      if (!outcome.ok) return outcome;
      const reservation: RemoteReservation = {
        ...outcome.reservation,
        handle: reservations.put(outcome.reservation),
      };
      return { ok: true, reservation };
    },
    commit: (handle: number, actual?: Debits) => meter.commit(reservations.take(handle), actual),
    refund: (handle: number) => meter.refund(reservations.take(handle)),
    // A committed charge is plain data (no handle): it may come from a record written before a restart.
    refundCommitted: (charge: CommittedCharge) => meter.refundCommitted(charge),
    balance: (account: Account, now: Date) => meter.balance(account, now),
  };
}

/**
 * `leases`: the ledger's lease operations, when the front thread spends leases (its reservations stay local).
 * `keys`: the main thread's key cache, which answers the front thread's (`authenticator.resolve`).
 */
export function servePorts(
  ports: StatePorts,
  leases?: LeaseLedger,
  keys?: KeyResolver,
): ServedPorts {
  const heldLeases = new Map<string, Account>();
  const reservations = new Handles<Reservation>();
  const leaders = new Handles<Leader>();
  const replays = new Handles<Promise<unknown>>();
  const handlers = {
    authenticator: authenticatorHandlers(ports.authenticator, keys),
    meter: meterHandlers(ports.meter, reservations),
    keyless: {
      take: (ip: string, items: number, now: Date) => ports.keyless.take(ip, items, now),
      refund: (ip: string, items: number, now: Date) => ports.keyless.refund(ip, items, now),
    },
    ...claimHandlers(ports, leaders, replays, reservations),
    ...(leases === undefined ? {} : { leases: leaseHandlers(leases, ports.meter, heldLeases) }),
    watches: {
      create: (keyId: string, sourceId: string, recordKey: string, now: Date) =>
        ports.watches.create(keyId, sourceId, recordKey, now),
      list: (keyId: string) => ports.watches.list(keyId),
      find: (keyId: string, watchId: string) => ports.watches.find(keyId, watchId),
      remove: (keyId: string, watchId: string) => ports.watches.remove(keyId, watchId),
    },
  };
  return {
    handlers,
    get pending() {
      return reservations.held.size;
    },
    async release(reason) {
      const held = [...reservations.held.values()];
      reservations.held.clear();
      await Promise.all(held.map((reservation) => ports.meter.refund(reservation)));
      // The thread's leases die with it: their unspent credits go back now, not after a TTL.
      const leaseIds = [...heldLeases.keys()];
      heldLeases.clear();
      if (leases !== undefined)
        await Promise.all(leaseIds.map((leaseId) => leases.giveBack(leaseId, null)));
      for (const leader of leaders.held.values())
        leader.abandon(new AppError('unavailable', reason));
      leaders.held.clear();
      replays.held.clear();
    },
  };
}
