/**
 * The lease operations of the in-process ledger (the LMDB Meter, or its in-memory twin), for holders inside this
 * node: front threads hold leases of the main thread's ledger over their MessagePort, so a keyed request's
 * reservation is no call to the main thread. The lease table is memory, as reservations are: a crash of the process
 * loses the held credits' reservations and keeps what was spent (written by the Meter's group commit).
 */
import type {
  LeaseGrant,
  LeaseLedger,
  LeaseRequest,
  LeaseScope,
  LeaseSpend,
} from '../ports/credits-lease.js';
import type { Meter } from './meter.js';

interface HeldLease {
  readonly scope: LeaseScope;
  granted: number;
  spent: number;
  expiresAtMs: number;
}

export class MeterLeaseLedger implements LeaseLedger {
  private readonly leases = new Map<string, HeldLease>();

  constructor(private readonly meter: Meter) {}

  async grant(request: LeaseRequest): Promise<LeaseGrant> {
    const { leaseId, account, now, scope, amount, limit, expiresAt } = request;
    const grant = this.meter.holdForLease(account, now, scope.kind, amount, limit);
    const held = this.leases.get(leaseId);
    if (held === undefined)
      this.leases.set(leaseId, {
        scope,
        granted: grant.granted,
        spent: 0,
        expiresAtMs: expiresAt.getTime(),
      });
    else {
      held.granted += grant.granted;
      held.expiresAtMs = Math.max(held.expiresAtMs, expiresAt.getTime());
    }
    return grant;
  }

  async spend(spends: readonly LeaseSpend[], expiresAt: Date): Promise<void> {
    const written: Promise<void>[] = [];
    for (const held of this.check(spends)) {
      const { account_id, period_start, kind } = held.lease.scope;
      this.count(held, expiresAt);
      written.push(this.meter.spendLeased(account_id, period_start, kind, held.amount));
    }
    await Promise.all(written);
  }

  /**
   * spend inside a write transaction of the accounts environment that a caller runs (an idempotent run's result
   * saved with its spend): throws, spending nothing, when a lease no longer holds its amount. Returns what undoes
   * the spends in memory when the transaction aborts after this.
   */
  spendWithin(spends: readonly LeaseSpend[], expiresAt: Date): () => void {
    const undos: (() => void)[] = [];
    const undo = () => {
      for (const each of undos) each();
    };
    try {
      for (const held of this.check(spends)) {
        const { account_id, period_start, kind } = held.lease.scope;
        const undoCount = this.meter.spendLeasedWithin(account_id, period_start, kind, held.amount);
        this.count(held, expiresAt);
        undos.push(() => {
          undoCount();
          held.lease.spent -= held.amount;
        });
      }
    } catch (error) {
      undo();
      throw error;
    }
    return undo;
  }

  /** All or nothing, as the PostgreSQL function: every lease is checked before any is spent. */
  private check(spends: readonly LeaseSpend[]): { lease: HeldLease; amount: number }[] {
    return spends.map((spend) => {
      const lease = this.leases.get(spend.lease_id);
      if (lease === undefined || lease.granted - lease.spent < spend.amount)
        throw new Error(`credit lease ${spend.lease_id} no longer holds ${spend.amount} credits`);
      return { lease, amount: spend.amount };
    });
  }

  private count(held: { lease: HeldLease; amount: number }, expiresAt: Date): void {
    held.lease.spent += held.amount;
    held.lease.expiresAtMs = Math.max(held.lease.expiresAtMs, expiresAt.getTime());
  }

  async giveBack(leaseId: string, amount: number | null): Promise<void> {
    const held = this.leases.get(leaseId);
    if (held === undefined) return;
    const back = Math.min(amount ?? held.granted - held.spent, held.granted - held.spent);
    const { account_id, period_start, kind } = held.scope;
    this.meter.releaseLeased(account_id, period_start, kind, back);
    if (amount === null) this.leases.delete(leaseId);
    else held.granted -= back;
  }

  async renew(leaseIds: readonly string[], expiresAt: Date): Promise<ReadonlySet<string>> {
    const kept = new Set<string>();
    for (const id of leaseIds) {
      const held = this.leases.get(id);
      if (held === undefined) continue;
      held.expiresAtMs = Math.max(held.expiresAtMs, expiresAt.getTime());
      kept.add(id);
    }
    return kept;
  }

  async reclaimExpired(now: Date): Promise<number> {
    const expired = [...this.leases].filter(([, held]) => held.expiresAtMs < now.getTime());
    for (const [id] of expired) await this.giveBack(id, null);
    return expired.length;
  }

  /** Gives back every lease in `leaseIds` (a front thread that went away: its leases die with it). */
  async giveBackAll(leaseIds: Iterable<string>): Promise<void> {
    for (const id of leaseIds) await this.giveBack(id, null);
  }

  /** Leases held right now (tests, shutdown checks). */
  get size(): number {
    return this.leases.size;
  }
}
