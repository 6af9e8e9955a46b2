// A copy of src/statements/postgres/schema.ts at commit 633f9fd (three schema owners; import paths changed only):
// upgrade.test.ts builds a database with these files as nodes of that release did.
/**
 * The PostgreSQL side of statement reviews: the review records with the analysis queue's claim columns, and the
 * encrypted uploads. The DDL is plain SQL and idempotent, run under an advisory lock (two concurrent
 * `CREATE TABLE IF NOT EXISTS` can still collide on the catalogue).
 *
 * statement_reviews: `record` is the ReviewRecord as JSON (json, not jsonb: the report's keys keep their order,
 * as the answers show them). created_at and expires_at are the record's own ISO texts (the service's clock),
 * compared in the "C" collation, where fixed-width ISO texts sort in time order. claimed_by and claimed_until are
 * the queue's lease (postgres/analysis-queue-pg.ts), judged on the database's clock; claims counts them.
 * statement_uploads: what encryptUpload made (nonce | tag | ciphertext); stored_at tells an orphan from an upload
 * whose review another node is still recording.
 */
import type { ClientBase } from 'pg';

export const statementReviewsDdl = `
CREATE TABLE IF NOT EXISTS statement_reviews (
  review_id     text        PRIMARY KEY,
  status        text        NOT NULL,
  created_at    text        COLLATE "C" NOT NULL,
  expires_at    text        COLLATE "C" NOT NULL,
  record        json        NOT NULL,
  claimed_by    text,
  claimed_until timestamptz,
  claims        integer     NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS statement_reviews_expiry ON statement_reviews (expires_at, review_id);
CREATE INDEX IF NOT EXISTS statement_reviews_pending ON statement_reviews (created_at, review_id)
  WHERE status = 'pending_analysis';
CREATE TABLE IF NOT EXISTS statement_uploads (
  review_id text        PRIMARY KEY,
  sealed    bytea       NOT NULL,
  stored_at timestamptz NOT NULL DEFAULT now()
)`;

const schemaLockSql = `SELECT pg_advisory_xact_lock(hashtext('ibanqa.statement_reviews'))`;

/**
 * Creates the tables when missing. One simple-protocol query of several statements is one implicit transaction in
 * PostgreSQL (PostgreSQL 15 documentation, 55.2.2.1 "Multiple Statements in a Simple Query",
 * https://www.postgresql.org/docs/15/protocol-flow.html#PROTOCOL-FLOW-MULTI-STATEMENT): the advisory lock is held
 * to its end, and a failure rolls all of it back.
 */
export async function ensureStatementSchema(db: Pick<ClientBase, 'query'>): Promise<void> {
  await db.query(`${schemaLockSql};\n${statementReviewsDdl}`);
}
