/**
 * The one connection pool of a node to the shared database (IBANQA_DATABASE_URL / --database-url): the state
 * ports, the credit leases and the statement reviews all query through it. Opened by node-state.ts, closed once by
 * it after everything that uses it has stopped.
 */
import pg from 'pg';
import { limits } from '../limits.js';

/** `connections`: limits.postgres.poolConnectionsMax for a node; a CLI command that migrates needs one. */
export function openPool(
  databaseUrl: string,
  connections: number = limits.postgres.poolConnectionsMax,
): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: connections,
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
