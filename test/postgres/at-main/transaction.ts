// A copy of src/postgres/transaction.ts at commit 633f9fd (three schema owners; import paths changed only):
// upgrade.test.ts builds a database with these files as nodes of that release did.
/** Transactions on one pooled connection: committed when `body` resolves, rolled back when it throws. */
import type pg from 'pg';

export async function inTransaction<T>(
  pool: pg.Pool,
  body: (client: pg.PoolClient) => Promise<T>,
  options: { readonly waitForFlush?: boolean } = {},
): Promise<T> {
  const client = await pool.connect();
  try {
    // One round trip for both: a simple query (no parameters) may hold several statements.
    await client.query(
      options.waitForFlush === false ? 'BEGIN; SET LOCAL synchronous_commit TO off' : 'BEGIN',
    );
    const result = await body(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * One statement whose commit does not wait for the server's WAL flush (synchronous_commit off for this transaction
 * only), for writes nobody has been told about yet: a reservation, an idempotency claim, a keyless count. A database
 * crash can lose the newest of them, which is the same as a request that never arrived; it cannot lose one that a
 * later acknowledged write depends on, because PostgreSQL writes its log in order and flushing a later synchronous
 * commit (the settlement of that reservation, the saved result of that claim) flushes everything before it.
 * Measured on this machine: a sequential reservation waited 10-14 ms for its flush (p50, load average 13-16).
 */
export function unflushed<R extends pg.QueryResultRow>(
  pool: pg.Pool,
  text: string,
  values: readonly unknown[],
): Promise<pg.QueryResult<R>> {
  return inTransaction(pool, (client) => client.query<R>(text, [...values]), {
    waitForFlush: false,
  });
}
