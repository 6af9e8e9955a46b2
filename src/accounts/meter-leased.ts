/**
 * A CreditMeter that spends leases: per (key, credit kind, period) this process holds credits taken from the
 * authoritative ledger (LeaseLedger.grant, reserved there, so no other holder can spend them) and reserves from
 * them in memory, with no call to the ledger per reservation. What requests spend is recorded against the lease
 * once per event-loop turn in one durable transaction (LeaseLedger.spend): a commit resolves only after it, so an
 * acknowledged debit survives the process. Refunds and the unspent part of commits go back to the lease.
 *
 * A lease is topped up by the key's recent rate on this process (limits.leases), and shrinks to exactly what each
 * request needs once few credits are left in the ledger: then everything a request does not spend is given back
 * at once, so the last credits go to whichever holder asks first. Idle leases give their credits back after one
 * renewal period; close() gives back every lease; a holder that dies stops renewing and any other holder (or the
 * next start) reclaims its leases once they expire (reserved credits released, spent credits stay spent).
 * Balances and refunds of committed credits are the ledger's own: its `reserved` counts every holder's leases.
 */
import { randomUUID } from 'node:crypto';
import { assert } from '../assert.js';
import { creditKinds, planOf, type CreditKind } from '../domain/plans/plans.js';
import { limits } from '../limits.js';
import type { Account } from '../ports/accounts.js';
import type {
  Balance,
  CommittedCharge,
  CreditMeter,
  Debits,
  HeldCharge,
  Reservation,
  ReserveOutcome,
} from '../ports/credits.js';
import type { LeaseLedger, LeaseScope, LeaseSpend } from '../ports/credits-lease.js';
import { checkDebits } from './meter.js';
import { PendingWrites } from './pending-writes.js';
import { batchSettlement } from './batch-settlement.js';
import { assertActive, periodOf } from './periods.js';

/** The largest top-up a lease may ask for now (limits.leases.sizeMax and shareMax). */
function capOf(lease: Lease): number {
  if (lease.unheld === null) return Number.POSITIVE_INFINITY;
  return Math.max(limits.leases.sizeMax, Math.floor(lease.unheld * limits.leases.shareMax));
}

/** Takes `needed` credits the lease holds now; false (nothing taken) when it holds fewer. */
function takeHeld(lease: Lease, needed: number): boolean {
  if (lease.available < needed) return false;
  lease.available -= needed;
  lease.inFlight += needed;
  lease.taken += needed;
  lease.usedSinceRenewal = true;
  return true;
}

interface Lease {
  readonly id: string;
  readonly scope: LeaseScope;
  /** Granted credits neither held by a running request nor spent. */
  available: number;
  /** Credits held by running requests. */
  inFlight: number;
  /** Spend records of it on their way to the ledger: it is not returned as idle before they land. */
  spending: number;
  /** Few credits left in the ledger: hold only what requests need. */
  exact: boolean;
  /** Credits of the kind unheld after this lease's last grant; null when the kind has no cap. */
  unheld: number | null;
  /** Credits taken since windowStartMs: the key's recent rate on this process. */
  taken: number;
  windowStartMs: number;
  usedSinceRenewal: boolean;
  /** A grant in flight: concurrent reservations wait for it rather than each asking the ledger. */
  topUp: Promise<unknown> | null;
}

export interface LeasedMeterOptions {
  /** How long a lease lives without renewal (limits.leases.ttlMs unless configured). */
  readonly ttlMs?: number;
  /** Milliseconds since the epoch; lease expiries are compared across nodes, so this is the wall clock. */
  readonly clock?: () => number;
  /** Failures of background renewals and returns (the next renewal tries again). */
  readonly onError?: (error: unknown) => void;
  /** A charge (spends saved by another store's transaction, see `charge`) committed at `at`. */
  readonly onCharged?: (accountId: string, at: Date) => void;
  /** Balances the lease ledger's replies carried, for answers (`answerBalance`); the ledger's own otherwise. */
  readonly notes?: Pick<CreditMeter, 'balance'>;
}

type Ledger = Pick<CreditMeter, 'balance' | 'refundCommitted'>;

export class LeasedMeter implements CreditMeter {
  private readonly leases = new Map<string, Lease>();
  private readonly live = new Map<Reservation, ReadonlyMap<CreditKind, Lease>>();
  private readonly holder = randomUUID();
  private generation = 0;
  private readonly batch = new Map<Lease, number>();
  private batchWritten: Promise<void> | null = null;
  private settleBatch: ((error?: unknown) => void) | null = null;
  private turnEnd: NodeJS.Immediate | null = null;
  /** A spend transaction on its way: the next batch waits for it and goes as one (group commit, below). */
  private spendInFlight = false;
  private readonly writes = new PendingWrites({ keepFailures: false });
  /** Credits on their way back to the ledger: a balance read after a settle waits for them. */
  private readonly returns = new PendingWrites({ keepFailures: false });
  private renewal: NodeJS.Timeout | null = null;
  private renewing = false;
  private readonly ttlMs: number;
  private readonly clock: () => number;
  private readonly onError: (error: unknown) => void;
  private readonly onCharged: (accountId: string, at: Date) => void;
  private readonly notes: Pick<CreditMeter, 'balance'>;

  constructor(
    private readonly leaseLedger: LeaseLedger,
    private readonly ledger: Ledger,
    options: LeasedMeterOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? limits.leases.ttlMs;
    this.clock = options.clock ?? Date.now;
    this.onError = options.onError ?? (() => undefined);
    this.onCharged = options.onCharged ?? (() => undefined);
    this.notes = options.notes ?? ledger;
  }

  /** Reclaims the leases of holders that died, then renews this holder's leases (and reclaims) periodically. */
  async start(): Promise<void> {
    this.renewal = setInterval(() => {
      void this.renew().catch(this.onError);
    }, this.ttlMs / limits.leases.renewalsPerTtl);
    this.renewal.unref();
    await this.leaseLedger.reclaimExpired(new Date(this.clock()));
  }

  async reserve(account: Account, debits: Debits, now: Date): Promise<ReserveOutcome> {
    checkDebits(debits);
    assertActive(account, now);
    const period = periodOf(account, now);
    const periodStart = period.start.toISOString();
    const allowances = planOf(account.plan).allowances;
    const taken = new Map<CreditKind, Lease>();
    for (const kind of creditKinds) {
      const needed = debits[kind] ?? 0;
      if (needed === 0) continue;
      const lease = this.leaseOf({ account_id: account.id, period_start: periodStart, kind });
      const limit = allowances[kind];
      // Held already (the common case): taken without a promise per kind.
      const refusedWith = takeHeld(lease, needed)
        ? null
        : await this.take(lease, needed, limit, account, now);
      if (refusedWith !== null) {
        for (const [heldKind, held] of taken) this.putBack(held, debits[heldKind] ?? 0);
        return {
          ok: false,
          kind,
          needed,
          limit: limit as number,
          remaining: refusedWith,
          resets_at: period.resetsAt?.toISOString() ?? null,
        };
      }
      taken.set(kind, lease);
    }
    const reservation: Reservation = Object.freeze({
      account_id: account.id,
      period_start: periodStart,
      debits: Object.freeze({ ...debits }),
    });
    this.live.set(reservation, taken);
    return { ok: true, reservation };
  }

  commit(reservation: Reservation, actual: Debits = reservation.debits): Promise<void> {
    checkDebits(actual);
    const held = this.settle(reservation);
    let spentAny = false;
    for (const [kind, lease] of held) {
      const spent = actual[kind] ?? 0;
      const reserved = reservation.debits[kind] ?? 0;
      assert(spent <= reserved, `commit of ${kind} exceeds its reservation`);
      lease.inFlight -= reserved;
      if (spent > 0) this.batch.set(lease, (this.batch.get(lease) ?? 0) + spent);
      spentAny ||= spent > 0;
      this.putBack(lease, reserved - spent, false);
    }
    return spentAny ? this.scheduleBatch() : Promise.resolve();
  }

  /**
   * The reservation's spends, for a transaction another store runs (an idempotent run's result saved with them):
   * they leave the lease now and count as spending, so the lease is not given back as idle meanwhile; if that
   * transaction fails they return to the lease, which still holds them in the ledger.
   */
  charge(reservation: Reservation, actual: Debits = reservation.debits): HeldCharge {
    checkDebits(actual);
    const spends: LeaseSpend[] = [];
    const spending: [Lease, number][] = [];
    for (const [kind, lease] of this.settle(reservation)) {
      const spent = actual[kind] ?? 0;
      const reserved = reservation.debits[kind] ?? 0;
      assert(spent <= reserved, `commit of ${kind} exceeds its reservation`);
      lease.inFlight -= reserved;
      if (spent > 0) {
        spends.push({ lease_id: lease.id, scope: lease.scope, amount: spent });
        spending.push([lease, spent]);
        lease.spending++;
      }
      this.putBack(lease, reserved - spent, false);
    }
    // A graceful stop waits for it, as for a batch of spends, before it gives the leases back.
    const { written, settle } = batchSettlement('charged spend failed');
    void this.writes.track(written).catch(() => undefined);
    return {
      charge: { kind: 'leases', spends, expiresAt: new Date(this.clock() + this.ttlMs) },
      settled: (committed) => {
        for (const [lease, spent] of spending) {
          lease.spending--;
          if (!committed) this.putBack(lease, spent, false);
        }
        if (committed && spends.length > 0)
          this.onCharged(reservation.account_id, new Date(this.clock()));
        settle();
      },
    };
  }

  async refund(reservation: Reservation): Promise<void> {
    for (const [kind, lease] of this.settle(reservation)) {
      lease.inFlight -= reservation.debits[kind] ?? 0;
      this.putBack(lease, reservation.debits[kind] ?? 0, false);
    }
  }

  refundCommitted(charge: CommittedCharge): Promise<void> {
    return this.ledger.refundCommitted(charge);
  }

  /**
   * The ledger's balance: `reserved` includes every holder's leased, unspent credits. Read after this holder's
   * returns land, so a request that sees its own settle sees its credits back where it gave them.
   */
  async balance(account: Account, now: Date): Promise<Balance> {
    if (this.returns.size > 0) await this.returns.flush();
    return this.ledger.balance(account, now);
  }

  /**
   * What an answer states after its settle: a balance a spend's reply carried when one is fresh (read after the
   * request's own debit), else the ledger's. Other holders may have spent since, so never what GET /usage reads.
   */
  async answerBalance(account: Account, now: Date): Promise<Balance> {
    if (this.returns.size > 0) await this.returns.flush();
    return this.notes.balance(account, now);
  }

  /** Resolves when every spend so far is recorded. */
  async flush(): Promise<void> {
    this.writeBatch();
    await this.writes.flush();
    // Spends that waited for the transaction in flight went when it landed: wait for them too.
    while (this.spendInFlight || this.batchWritten !== null) {
      this.writeBatch();
      await this.writes.flush();
    }
  }

  /** Records what was spent, then gives back every lease's unspent credits (a graceful stop). */
  async close(): Promise<void> {
    if (this.renewal !== null) clearInterval(this.renewal);
    this.renewal = null;
    await this.flush();
    const leases = [...this.leases.values()];
    this.leases.clear();
    await Promise.all(leases.map((lease) => this.leaseLedger.giveBack(lease.id, null)));
  }

  /** Reservations neither committed nor refunded (shutdown checks and tests). */
  get pendingReservations(): number {
    return this.live.size;
  }

  private leaseOf(scope: LeaseScope): Lease {
    const key = `${scope.account_id}|${scope.period_start}|${scope.kind}`;
    let lease = this.leases.get(key);
    if (lease === undefined) {
      // A generation in the id: a lease reclaimed while this process stalled is never confused with its successor.
      lease = {
        id: `${this.holder}|${key}|${this.generation++}`,
        scope,
        available: 0,
        inFlight: 0,
        spending: 0,
        exact: false,
        // Until the first grant says how much is left, the cap is limits.leases.sizeMax.
        unheld: 0,
        taken: 0,
        windowStartMs: this.clock(),
        usedSinceRenewal: true,
        topUp: null,
      };
      this.leases.set(key, lease);
    }
    return lease;
  }

  /** Takes `needed` credits from the lease, topping it up as needed: null when taken, else what remains. */
  private async take(
    lease: Lease,
    needed: number,
    limit: number | null,
    account: Account,
    now: Date,
  ): Promise<number | null> {
    for (;;) {
      if (takeHeld(lease, needed)) return null;
      if (limit !== null && needed > limit) {
        // Never fits: no grant, just what the ledger and this lease would still have (as a refusal states it).
        const left = (await this.ledger.balance(account, now))[lease.scope.kind].remaining;
        return (left ?? 0) + lease.available;
      }
      if (lease.topUp !== null) {
        await lease.topUp;
        continue;
      }
      lease.usedSinceRenewal = true;
      const grant = this.leaseLedger.grant({
        leaseId: lease.id,
        account,
        now,
        scope: lease.scope,
        amount: this.sizeOf(lease, needed),
        limit,
        expiresAt: new Date(this.clock() + this.ttlMs),
      });
      lease.topUp = grant;
      try {
        const { granted, remaining } = await grant;
        lease.available += granted;
        lease.exact = remaining !== null && remaining < limits.leases.exactBelow;
        lease.unheld = remaining;
        if (granted === 0 && lease.available < needed) return (remaining ?? 0) + lease.available;
      } finally {
        lease.topUp = null;
      }
    }
  }

  /** What a top-up asks for: what the request lacks, or (not in exact mode) the key's recent rate, within bounds. */
  private sizeOf(lease: Lease, needed: number): number {
    const short = needed - lease.available;
    if (lease.exact) return short;
    const nowMs = this.clock();
    const elapsedMs = Math.max(1, nowMs - lease.windowStartMs);
    const byRate = Math.ceil((lease.taken / elapsedMs) * limits.leases.refillMs);
    if (elapsedMs > limits.leases.refillMs) {
      lease.windowStartMs = nowMs;
      lease.taken = 0;
    }
    const size = Math.min(capOf(lease), Math.max(limits.leases.sizeMin, byRate));
    return Math.max(short, size);
  }

  /** Credits back into the lease; in exact mode they go on back to the ledger at once. */
  private putBack(lease: Lease, amount: number, wasTaken = true): void {
    if (wasTaken) lease.inFlight -= amount;
    lease.available += amount;
    if (!lease.exact || lease.available === 0) return;
    const back = lease.available;
    lease.available = 0;
    const returned = this.returns.track(this.leaseLedger.giveBack(lease.id, back));
    void this.writes.track(returned).catch(this.onError);
  }

  private settle(reservation: Reservation): ReadonlyMap<CreditKind, Lease> {
    const held = this.live.get(reservation);
    assert(held !== undefined, 'reservation already committed or refunded, or not from this meter');
    this.live.delete(reservation);
    return held;
  }

  /**
   * Adds to this turn's spends; resolves when their transaction has committed. At most one spend transaction is on
   * its way at a time: what requests spend meanwhile, over however many turns, goes in the next one when it lands.
   * Sent every turn instead, the transactions of one key queued on its usage row's lock, each with its own WAL
   * flush, and under load cost the PostgreSQL backends more CPU than the node itself (bench/pg-ledger.ts).
   */
  private scheduleBatch(): Promise<void> {
    if (this.batchWritten === null) {
      const { written, settle } = batchSettlement('credit spend failed');
      this.batchWritten = written;
      this.settleBatch = settle;
      if (!this.spendInFlight) this.turnEnd = setImmediate(() => this.writeBatch());
    }
    return this.batchWritten;
  }

  private writeBatch(): void {
    if (this.turnEnd !== null) clearImmediate(this.turnEnd);
    this.turnEnd = null;
    if (this.spendInFlight) return;
    const settle = this.settleBatch;
    const leases = [...this.batch.keys()];
    const spends: LeaseSpend[] = [...this.batch].map(([lease, amount]) => ({
      lease_id: lease.id,
      scope: lease.scope,
      amount,
    }));
    this.batch.clear();
    for (const lease of leases) lease.spending++;
    this.batchWritten = null;
    this.settleBatch = null;
    if (settle === null) return;
    this.spendInFlight = true;
    const written = this.leaseLedger.spend(spends, new Date(this.clock() + this.ttlMs));
    const landed = () => {
      for (const lease of leases) lease.spending--;
      this.spendInFlight = false;
      if (this.batchWritten !== null) this.writeBatch();
    };
    this.writes.track(written).then(
      () => {
        landed();
        settle();
      },
      (error: unknown) => {
        landed();
        settle(error ?? new Error('credit spend failed'));
      },
    );
  }

  /**
   * Gives back the credits of leases nobody used since the last renewal, extends the others, forgets those another
   * holder reclaimed (this process stalled past their expiry), and reclaims the expired leases of dead holders.
   */
  private async renew(): Promise<void> {
    if (this.renewing) return;
    this.renewing = true;
    try {
      const kept: Lease[] = [];
      for (const [key, lease] of this.leases) {
        const idle = lease.inFlight === 0 && lease.spending === 0 && !this.batch.has(lease);
        if (idle && !lease.usedSinceRenewal) {
          this.leases.delete(key);
          await this.writes.track(this.leaseLedger.giveBack(lease.id, null));
        } else {
          lease.usedSinceRenewal = false;
          kept.push(lease);
        }
      }
      const now = this.clock();
      const held = await this.leaseLedger.renew(
        kept.map((lease) => lease.id),
        new Date(now + this.ttlMs),
      );
      for (const lease of kept) {
        if (held.has(lease.id)) continue;
        lease.available = 0;
        this.leases.delete(
          `${lease.scope.account_id}|${lease.scope.period_start}|${lease.scope.kind}`,
        );
      }
      await this.leaseLedger.reclaimExpired(new Date(now));
    } finally {
      this.renewing = false;
    }
  }
}
