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
    // All or nothing, as the PostgreSQL function: every lease is checked before any is spent.
    for (const spend of spends) {
      const held = this.leases.get(spend.lease_id);
      if (held === undefined || held.granted - held.spent < spend.amount)
        throw new Error(`credit lease ${spend.lease_id} no longer holds ${spend.amount} credits`);
    }
    const written: Promise<void>[] = [];
    for (const spend of spends) {
      const held = this.leases.get(spend.lease_id) as HeldLease;
      held.spent += spend.amount;
      held.expiresAtMs = Math.max(held.expiresAtMs, expiresAt.getTime());
      const { account_id, period_start, kind } = held.scope;
      written.push(this.meter.spendLeased(account_id, period_start, kind, spend.amount));
    }
    await Promise.all(written);
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
