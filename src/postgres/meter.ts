/**
 * The credit ledger in the shared database: exact across every node and process that uses it.
 *
 * A reservation is one conditional statement on the (account, period) row: the held credits are added only if
 * every capped kind still fits (used + reserved + needed <= limit), so concurrent reservations from any number
 * of nodes can never overspend; PostgreSQL's row lock serialises them. Commits and refunds of one event-loop turn
 * are settled together in ONE statement (one transaction, group commit as the LMDB ledger does): every commit of
 * the turn resolves when that transaction has committed, so an acknowledged debit is durable in PostgreSQL
 * (synchronous_commit on, the server's default: flushed to its WAL) before the service answers.
 *
 * Held credits live in the row too (reserved_*): balances on every node show them. A node killed between reserve
 * and settle leaves its held credits reserved, never spent; they are not returned until a lease protocol with a
 * TTL takes over reservations (RELIABILITY.md).
 */
import { assert } from '../assert.js';
import { assertActive, isExpired, periodOf } from '../accounts/periods.js';
import { checkDebits } from '../accounts/meter.js';
import { PendingWrites } from '../accounts/pending-writes.js';
import { batchSettlement } from '../accounts/batch-settlement.js';
import { creditKinds, planOf, type CreditKind } from '../accounts/plans.js';
import type { Account } from '../ports/accounts.js';
import type {
  Balance,
  CommittedCharge,
  CreditMeter,
  Debits,
  HeldCharge,
  KindBalance,
  Reservation,
  ReserveOutcome,
} from '../ports/credits.js';
import type pg from 'pg';
import {
  refundCommittedStatement,
  reserveStatement,
  settleStatement,
  usageColumnList,
  usageRowOf,
  zeroCounts,
  type Counts,
  type UsageRow,
} from './usage-sql.js';
import { unflushed } from './transaction.js';

/** A reservation that found its row changed between the refused statement and the re-read tries again this often. */
const RESERVE_ATTEMPTS_MAX = 3;

interface Settlement {
  readonly account_id: string;
  readonly period_start: string;
  readonly used: Counts;
  readonly released: Counts;
}

export class PgMeter implements CreditMeter {
  /** Reservations of this process neither committed nor refunded: each settles exactly once. */
  private readonly live = new Set<Reservation>();
  private readonly batch = new Map<string, Settlement>();
  private batchWritten: Promise<void> | null = null;
  private turnEnd: NodeJS.Immediate | null = null;
  private settleBatch: ((error?: unknown) => void) | null = null;
  /** performance.now() of each commit that spends credits in this turn's batch. */
  private batchCommitsMs: number[] = [];
  private commitLatency: LatencyObserver | undefined;
  private readonly writes = new PendingWrites({ keepFailures: false });

  constructor(private readonly pool: pg.Pool) {}

  /** Reports, for every commit that spends credits, the seconds from commit() to its transaction committing. */
  observeCommits(observer: LatencyObserver): void {
    this.commitLatency = observer;
  }

  async reserve(account: Account, debits: Debits, now: Date): Promise<ReserveOutcome> {
    checkDebits(debits);
    assertActive(account, now);
    const period = periodOf(account, now);
    const periodStart = period.start.toISOString();
    const amounts = new Map<CreditKind, number>();
    for (const kind of creditKinds)
      if ((debits[kind] ?? 0) > 0) amounts.set(kind, debits[kind] as number);
    const caps = new Map<CreditKind, number>();
    const allowances = planOf(account.plan).allowances;
    for (const kind of amounts.keys()) {
      const limit = allowances[kind];
      if (limit !== null) caps.set(kind, limit);
    }
    const reservation: Reservation = Object.freeze({
      account_id: account.id,
      period_start: periodStart,
      debits: Object.freeze({ ...debits }),
    });
    if (amounts.size > 0) {
      const refusal = await this.hold(account, periodStart, amounts, caps);
      if (refusal !== null)
        return { ...refusal, resets_at: period.resetsAt?.toISOString() ?? null };
    }
    this.live.add(reservation);
    return { ok: true, reservation };
  }

  commit(reservation: Reservation, actual: Debits = reservation.debits): Promise<void> {
    checkDebits(actual);
    for (const kind of creditKinds)
      assert(
        (actual[kind] ?? 0) <= (reservation.debits[kind] ?? 0),
        `commit of ${kind} exceeds its reservation`,
      );
    return this.settle(reservation, actual);
  }

  async refund(reservation: Reservation): Promise<void> {
    await this.settle(reservation, {});
  }

  /**
   * The reservation as another statement commits it (PgIdempotency saving a run's result with
   * `rowSettlement`): held until that statement tells `settledWithin`, or refunded when it fails.
   */
  charge(reservation: Reservation, actual: Debits = reservation.debits): HeldCharge {
    checkDebits(actual);
    assert(this.live.has(reservation), 'reservation already settled, or not from this meter');
    for (const kind of creditKinds)
      assert(
        (actual[kind] ?? 0) <= (reservation.debits[kind] ?? 0),
        `commit of ${kind} exceeds its reservation`,
      );
    return { charge: { kind: 'reservation', reservation, actual }, settled: () => undefined };
  }

  /** The parameters of settleRowSet for a charge: per kind what it spent and what it released. */
  rowSettlement(reservation: Reservation, actual: Debits): number[] {
    assert(this.live.has(reservation), 'reservation already settled, or not from this meter');
    return creditKinds.flatMap((kind) => [actual[kind] ?? 0, reservation.debits[kind] ?? 0]);
  }

  /** A charge's statement committed: the reservation is settled. */
  settledWithin(reservation: Reservation): void {
    assert(this.live.delete(reservation), 'reservation already settled, or not from this meter');
  }

  async balance(account: Account, now: Date): Promise<Balance> {
    const period = periodOf(account, now);
    const row = await this.read(account.id, period.start.toISOString());
    return balanceOf(account, now, row, period.resetsAt?.toISOString() ?? null);
  }

  /** Gives back credits already committed (in the period they were taken in), never taking usage below zero. */
  async refundCommitted(charge: CommittedCharge): Promise<void> {
    checkDebits(charge.debits);
    await this.writes.track(
      this.pool.query(refundCommittedStatement, [
        charge.account_id,
        charge.period_start,
        ...creditKinds.map((kind) => charge.debits[kind] ?? 0),
      ]),
    );
  }

  /** Resolves when every settlement so far is committed. */
  async flush(): Promise<void> {
    this.writeBatch();
    await this.writes.flush();
  }

  /** Reservations of this process neither committed nor refunded (shutdown checks and tests). */
  get pendingReservations(): number {
    return this.live.size;
  }

  /** null when held; otherwise the first kind (in creditKinds order) that does not fit, as the row now stands. */
  private async hold(
    account: Account,
    periodStart: string,
    amounts: ReadonlyMap<CreditKind, number>,
    caps: ReadonlyMap<CreditKind, number>,
  ): Promise<Omit<Extract<ReserveOutcome, { ok: false }>, 'resets_at'> | null> {
    const statement = reserveStatement(amounts, caps);
    // A kind asking for more than its whole allowance never fits; the row is not even created for it.
    const hopeless = [...caps].some(([kind, limit]) => (amounts.get(kind) ?? 0) > limit);
    for (let attempt = 0; attempt < RESERVE_ATTEMPTS_MAX; attempt++) {
      if (!hopeless) {
        const { rows } = await unflushed<Record<string, string>>(this.pool, statement.text, [
          account.id,
          periodStart,
          ...statement.values,
        ]);
        if (rows[0] !== undefined) return null;
      }
      const row = await this.read(account.id, periodStart);
      for (const kind of creditKinds) {
        const limit = caps.get(kind);
        const needed = amounts.get(kind) ?? 0;
        if (limit === undefined || needed === 0) continue;
        const remaining = Math.max(0, limit - row.used[kind] - row.reserved[kind]);
        if (needed > remaining) return { ok: false, kind, needed, limit, remaining };
      }
      // Credits were released between the refused statement and the read: try again.
    }
    return unreachableRace(account.id);
  }

  private async read(accountId: string, periodStart: string): Promise<UsageRow> {
    const { rows } = await this.pool.query<Record<string, string>>(
      `SELECT ${usageColumnList} FROM credit_usage WHERE account_id = $1 AND period_start = $2`,
      [accountId, periodStart],
    );
    return usageRowOf(rows[0]);
  }

  /** Adds the reservation to this turn's batch; resolves when the batch's transaction has committed. */
  private settle(reservation: Reservation, spent: Debits): Promise<void> {
    assert(
      this.live.delete(reservation),
      'reservation already committed or refunded, or not from this meter',
    );
    if (creditKinds.every((kind) => (reservation.debits[kind] ?? 0) === 0))
      return Promise.resolve();
    const batchKey = `${reservation.account_id}|${reservation.period_start}`;
    let entry = this.batch.get(batchKey);
    if (entry === undefined) {
      entry = {
        account_id: reservation.account_id,
        period_start: reservation.period_start,
        used: zeroCounts(),
        released: zeroCounts(),
      };
      this.batch.set(batchKey, entry);
    }
    if (creditKinds.some((kind) => (spent[kind] ?? 0) > 0))
      this.batchCommitsMs.push(performance.now());
    for (const kind of creditKinds) {
      entry.used[kind] += spent[kind] ?? 0;
      entry.released[kind] += reservation.debits[kind] ?? 0;
    }
    if (this.batchWritten === null) {
      const { written, settle } = batchSettlement('credit settlement failed');
      this.batchWritten = written;
      this.settleBatch = settle;
      this.turnEnd = setImmediate(() => this.writeBatch());
    }
    return this.batchWritten;
  }

  private timeCommits(commitsMs: readonly number[]): void {
    if (this.commitLatency === undefined) return;
    const nowMs = performance.now();
    for (const commitMs of commitsMs) this.commitLatency.observe((nowMs - commitMs) / 1000);
  }

  /** Issues this turn's settlements as one statement. */
  private writeBatch(): void {
    if (this.turnEnd !== null) clearImmediate(this.turnEnd);
    this.turnEnd = null;
    const entries = [...this.batch.values()];
    const settle = this.settleBatch;
    const commitsMs = this.batchCommitsMs;
    this.batchCommitsMs = [];
    this.batch.clear();
    this.batchWritten = null;
    this.settleBatch = null;
    if (settle === null || entries.length === 0) return;
    const values: unknown[] = [
      entries.map((entry) => entry.account_id),
      entries.map((entry) => entry.period_start),
    ];
    for (const kind of creditKinds)
      values.push(
        entries.map((entry) => entry.used[kind]),
        entries.map((entry) => entry.released[kind]),
      );
    const written = this.pool.query(settleStatement, values);
    this.writes.track(written).then(
      () => {
        settle();
        this.timeCommits(commitsMs);
      },
      (error: unknown) => settle(error ?? new Error('credit settlement failed')),
    );
  }
}

/** Where commit latencies go (a prom-client Histogram is one). */
export interface LatencyObserver {
  observe(seconds: number): void;
}

function unreachableRace(accountId: string): never {
  throw new Error(
    `credit reservation of ${accountId} kept racing with releases (${RESERVE_ATTEMPTS_MAX} attempts)`,
  );
}

/** What a balance says, from a row: the same arithmetic as the LMDB meter's. */
export function balanceOf(
  account: Account,
  now: Date,
  row: UsageRow,
  resetsAt: string | null,
): Balance {
  const allowances = planOf(account.plan).allowances;
  const expired = isExpired(account, now);
  const balance = {} as Record<CreditKind, KindBalance>;
  for (const kind of creditKinds) {
    const limit = allowances[kind];
    const { [kind]: used } = row.used;
    const { [kind]: reserved } = row.reserved;
    const remaining = limit === null ? null : expired ? 0 : Math.max(0, limit - used - reserved);
    balance[kind] = { limit, used, reserved, remaining, resets_at: resetsAt };
  }
  return balance;
}
