/**
 * The lease operations of the shared credit ledger (migration 2's functions): each is one statement, so one
 * transaction, under the usage row's lock. Grants and renewals do not wait for the WAL flush (nobody has been told
 * about them; a later synchronous commit flushes them first); spends do: they are acknowledged debits.
 */
import type pg from 'pg';
import type { HeldBalance } from '../accounts/pushed-balances.js';
import { isExpired, periodOf } from '../accounts/periods.js';
import type { Balance } from '../ports/credits.js';
import type { LeaseGrant, LeaseLedger, LeaseRequest, LeaseSpend } from '../ports/credits-lease.js';
import { balanceOf } from './meter.js';
import { unflushed } from './transaction.js';
import { usageRowOf } from './usage-sql.js';

export class PgLeaseLedger implements LeaseLedger {
  constructor(
    private readonly pool: pg.Pool,
    /** Who holds the leases this ledger grants: one id per process. */
    private readonly holder: string,
    /** The balances a spend's transaction read after it, for the node's X-RateLimit headers. */
    private readonly onBalances: (notes: readonly HeldBalance[]) => void = () => undefined,
  ) {}

  async grant({ leaseId, scope, amount, limit, expiresAt }: LeaseRequest): Promise<LeaseGrant> {
    const { rows } = await unflushed<{ granted: string; remaining: string | null }>(
      this.pool,
      'SELECT granted, remaining FROM grant_lease($1, $2, $3, $4, $5, $6, $7, $8)',
      [
        leaseId,
        this.holder,
        scope.account_id,
        scope.period_start,
        scope.kind,
        amount,
        limit,
        expiresAt,
      ],
    );
    const row = rows[0] as { granted: string; remaining: string | null };
    return {
      granted: Number(row.granted),
      remaining: row.remaining === null ? null : Number(row.remaining),
    };
  }

  async spend(spends: readonly LeaseSpend[], expiresAt: Date): Promise<void> {
    // One order for every node's locks (usage row, then lease): see the functions' comment in the migration.
    const sorted = [...spends].sort((a, b) => order(a).localeCompare(order(b)));
    // Before the statement: the rows it reads come after this, so a note is never newer than it claims.
    const sentAt = new Date();
    const { rows } = await this.pool.query<Record<string, string>>(
      'SELECT * FROM spend_leases_usage($1::text[], $2::bigint[], $3)',
      [sorted.map((spend) => spend.lease_id), sorted.map((spend) => spend.amount), expiresAt],
    );
    this.onBalances(rows.map((row) => usageNote(row, sentAt)));
  }

  async giveBack(leaseId: string, amount: number | null): Promise<void> {
    await this.pool.query('SELECT return_lease($1, $2)', [leaseId, amount]);
  }

  async renew(leaseIds: readonly string[], expiresAt: Date): Promise<ReadonlySet<string>> {
    const { rows } = await unflushed<{ id: string }>(
      this.pool,
      'SELECT renew_leases AS id FROM renew_leases($1::text[], $2)',
      [leaseIds, expiresAt],
    );
    return new Set(rows.map((row) => row.id));
  }

  async reclaimExpired(now: Date): Promise<number> {
    const { rows } = await this.pool.query<{ count: number }>(
      'SELECT reclaim_expired_leases($1) AS count',
      [now],
    );
    return rows[0]?.count ?? 0;
  }
}

function order(spend: LeaseSpend): string {
  return `${spend.scope.account_id}|${spend.scope.period_start}|${spend.lease_id}`;
}

/**
 * A usage row as a balance note: it speaks for its own period only. The requests of one spend (a dozen or more
 * under load) read the same note, so its Balance is built once per plan and expiry state.
 */
function usageNote(row: Record<string, string>, at: Date): HeldBalance {
  const usage = usageRowOf(row);
  let built: { plan: string; expired: boolean; balance: Balance } | undefined;
  return {
    account_id: row['account_id'] as string,
    at,
    balanceAt(account, now) {
      const period = periodOf(account, now);
      if (period.start.toISOString() !== row['period_start']) return undefined;
      const expired = isExpired(account, now);
      if (built?.plan !== account.plan || built.expired !== expired)
        built = {
          plan: account.plan,
          expired,
          balance: balanceOf(account, now, usage, period.resetsAt?.toISOString() ?? null),
        };
      return built.balance;
    },
  };
}
