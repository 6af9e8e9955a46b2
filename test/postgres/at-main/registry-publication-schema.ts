// A copy of src/registry/publish/schema.ts at commit 633f9fd (three schema owners; import paths changed only):
// upgrade.test.ts builds a database with these files as nodes of that release did.
/**
 * The PostgreSQL side of registry publication: one table of published imports, in order. The DDL is plain SQL and
 * idempotent, so any node may run it at any time (under the publication lock, as two concurrent
 * `CREATE TABLE IF NOT EXISTS` can still collide on the catalogue).
 *
 * One row per import a node committed and published: `version` is the registry version that import made (one
 * more than `base_version`, the version it was made on), `fingerprint` and `base_fingerprint` the registry
 * fingerprints after and before it. A node applies the rows after its own version in order, and only onto the
 * registry the row was made on, so every node passes through the same versions with the same fingerprints.
 * `payload` is the import itself (payload.ts), gzip-compressed; `payload_sha256` is over the compressed bytes.
 */
import type { ClientBase } from 'pg';

export const registryPublicationsDdl = `
CREATE TABLE IF NOT EXISTS registry_publications (
  version          integer     PRIMARY KEY,
  base_version     integer     NOT NULL,
  base_fingerprint text        NOT NULL,
  fingerprint      text        NOT NULL,
  source_id        text        NOT NULL,
  snapshot_date    text,
  row_count        integer     NOT NULL,
  payload          bytea       NOT NULL,
  payload_sha256   text        NOT NULL,
  published_at     timestamptz NOT NULL DEFAULT now(),
  CHECK (version = base_version + 1)
)`;

/** NOTIFY channel: the payload is the newest published version. */
export const publicationChannel = 'ibanqa_registry';

/** Held for a transaction: publishers (and schema creation) one at a time across every node. */
export const publicationLockSql = `SELECT pg_advisory_xact_lock(hashtext('ibanqa.registry_publications'))`;

/** Creates the table when missing, in a transaction of its own. */
export async function ensurePublicationSchema(client: ClientBase): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(publicationLockSql);
    await client.query(registryPublicationsDdl);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
