/**
 * The PostgreSQL side of registry publication: the registry_publications table (made by migration 3 of
 * src/postgres/migrations.ts, which documents its columns; a node migrates before it catches up or follows, and
 * `ibanqa registry import | sync --database-url` before it publishes), the channel that announces a new version,
 * and the lock that lets one publisher at a time extend the chain.
 */

/** NOTIFY channel: the payload is the newest published version. */
export const publicationChannel = 'ibanqa_registry';

/** Held for a transaction: publishers one at a time across every node. */
export const publicationLockSql = `SELECT pg_advisory_xact_lock(hashtext('ibanqa.registry_publications'))`;
