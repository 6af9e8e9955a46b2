/**
 * The one connection pool of a node to the shared database (IBANQA_DATABASE_URL / --database-url): the state
 * ports, the credit leases and the statement reviews all query through it. Opened by node-state.ts, closed once by
 * it after everything that uses it has stopped.
 */
import pg from 'pg';
import { limits } from '../limits.js';

/**
 * `connections`: limits.postgres.poolConnectionsMax for a node; a CLI command that migrates needs one.
 * `onIdleError`: told of an idle connection the server closed (restart, failover); the pool replaces it on demand.
 */
export function openPool(
  databaseUrl: string,
  connections: number = limits.postgres.poolConnectionsMax,
  onIdleError: (error: Error) => void = () => undefined,
): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: connections,
    connectionTimeoutMillis: limits.postgres.connectMsMax,
    // pg_stat_activity then says which node process holds a connection.
    application_name: `ibanqa-${process.pid}`,
  });
  // Without a listener, pg's 'error' event would be thrown as an uncaught exception.
  pool.on('error', onIdleError);
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
