/**
 * The SQL of the credit ledger over credit_usage, one row per (account, period) with a used and a reserved
 * column per credit kind. Column names come from the fixed creditKinds list, never from input.
 */
import { creditKinds, type CreditKind } from '../accounts/plans.js';

export type Counts = Record<CreditKind, number>;

/** A credit_usage row as the ledger reads it. */
export interface UsageRow {
  readonly used: Counts;
  readonly reserved: Counts;
}

export const usageColumnList = creditKinds
  .flatMap((kind) => [`used_${kind}`, `reserved_${kind}`])
  .join(', ');

export function zeroCounts(): Counts {
  return { api_calls: 0, profiles: 0, bic_reveals: 0, exports: 0, bank_metadata: 0, statements: 0 };
}

/** bigint columns arrive as text (pg keeps int8 exact); credit counts are safe integers (the meter asserts every debit is). */
export function usageRowOf(row: Record<string, string> | undefined): UsageRow {
  const used = zeroCounts();
  const reserved = zeroCounts();
  for (const kind of creditKinds) {
    used[kind] = Number(row?.[`used_${kind}`] ?? 0);
    reserved[kind] = Number(row?.[`reserved_${kind}`] ?? 0);
  }
  return { used, reserved };
}

/**
 * Holds `amounts` on the row in one statement, creating it if needed, only if every capped kind still fits:
 * no row comes back when one does not (the conflict branch's WHERE failed). Parameters: $1 account, $2 period
 * start, then per kind its amount and (capped kinds) its limit. A fresh row is only inserted with amounts the
 * caller already checked against the limits.
 */
export function reserveStatement(
  amounts: ReadonlyMap<CreditKind, number>,
  caps: ReadonlyMap<CreditKind, number>,
): { text: string; values: number[] } {
  const kinds = [...amounts.keys()];
  const params = new Map(kinds.map((kind, i) => [kind, `$${3 + i}`]));
  let next = 3 + kinds.length;
  const limitParams = new Map([...caps.keys()].map((kind) => [kind, `$${next++}`]));
  const sets = kinds.map(
    (kind) => `reserved_${kind} = u.reserved_${kind} + EXCLUDED.reserved_${kind}`,
  );
  const fits = [...caps.keys()].map(
    (kind) =>
      `u.used_${kind} + u.reserved_${kind} + EXCLUDED.reserved_${kind} <= ${limitParams.get(kind)}::bigint`,
  );
  const text = `INSERT INTO credit_usage AS u (account_id, period_start, ${kinds.map((k) => `reserved_${k}`).join(', ')})
VALUES ($1, $2, ${kinds.map((k) => `${params.get(k)}::bigint`).join(', ')})
ON CONFLICT (account_id, period_start) DO UPDATE SET ${sets.join(', ')}
${fits.length === 0 ? '' : `WHERE ${fits.join(' AND ')}`}
RETURNING ${usageColumnList}`;
  return {
    text,
    values: [...amounts.values(), ...caps.values()],
  };
}

/**
 * Settles a batch of reservations of many rows in one statement (so one transaction): `used` adds what was
 * spent, `released` takes back what was held. Parameters are arrays: account ids, period starts, then per
 * kind the spent and the released amounts.
 *
 * The rows are locked first, in (account_id, period_start) order (`ordered`: ORDER BY under FOR UPDATE locks
 * rows as the sort hands them out), because an UPDATE ... FROM locks rows in whatever order its join plan
 * meets them: two nodes settling batches that share two keys' rows then waited on each other, and PostgreSQL
 * broke the deadlock (40P01) by failing one node's batch, seen in the three-node kill test.
 */
export const settleStatement = `WITH ordered AS MATERIALIZED (
  SELECT account_id, period_start FROM credit_usage
  WHERE (account_id, period_start) IN (SELECT * FROM unnest($1::text[], $2::text[]))
  ORDER BY account_id, period_start
  FOR UPDATE
)
UPDATE credit_usage AS u SET ${creditKinds
  .map(
    (kind) =>
      `used_${kind} = u.used_${kind} + d.used_${kind}, reserved_${kind} = u.reserved_${kind} - d.released_${kind}`,
  )
  .join(', ')}
FROM unnest($1::text[], $2::text[], ${creditKinds
  .flatMap((_, i) => [`$${3 + 2 * i}::bigint[]`, `$${4 + 2 * i}::bigint[]`])
  .join(', ')}) AS d(account_id, period_start, ${creditKinds
  .flatMap((kind) => [`used_${kind}`, `released_${kind}`])
  .join(', ')})
WHERE u.account_id = d.account_id AND u.period_start = d.period_start
  AND (u.account_id, u.period_start) IN (SELECT account_id, period_start FROM ordered)`;

/** Gives back committed credits of one row, never below zero. $1 account, $2 period start, then per kind the amount. */
export const refundCommittedStatement = `UPDATE credit_usage SET ${creditKinds
  .map((kind, i) => `used_${kind} = greatest(0, used_${kind} - $${3 + i}::bigint)`)
  .join(', ')}
WHERE account_id = $1 AND period_start = $2`;

/**
 * The SET list that settles one reservation on its row, as settleStatement does for a batch: per kind in
 * creditKinds order, parameter `first + 2i` is what was spent and `first + 2i + 1` what was held. For a statement
 * that settles a charge together with another write (an idempotent run's saved result, src/postgres/idempotency.ts).
 */
export function settleRowSet(first: number): string {
  return creditKinds
    .map(
      (kind, i) =>
        `used_${kind} = used_${kind} + $${first + 2 * i}::bigint, reserved_${kind} = reserved_${kind} - $${first + 2 * i + 1}::bigint`,
    )
    .join(', ');
}
