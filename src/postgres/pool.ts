/** The connection pool of one process to the shared state database (IBANQA_DATABASE_URL / --database-url). */
import pg from 'pg';
import { limits } from '../limits.js';

export function openPool(databaseUrl: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: limits.postgres.poolConnectionsMax,
    connectionTimeoutMillis: limits.postgres.connectMsMax,
  });
  // An idle connection the server closed (restart, failover) is reported here; the pool replaces it on demand.
  pool.on('error', () => undefined);
  return pool;
}

/** postgres://user:secret@host/db -> postgres://user:***@host/db, for logs and messages. */
export function redactedUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return '(unparsable database URL)';
  }
}
