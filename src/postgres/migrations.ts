/**
 * The schema of the shared state, as numbered migrations applied in order. Kept as TypeScript strings (not .sql
 * files) so the bundle carries them. A migration is never edited once released: a change is a new one.
 * Tables are created unqualified, in the connection's search_path (the `public` schema unless the URL's
 * `options=-c search_path=...` names another), so one database can hold several independent deployments.
 */
import { creditKinds } from '../accounts/plans.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** One used and one reserved column per credit kind: a reservation is one conditional UPDATE of one row. */
const usageColumns = creditKinds
  .map(
    (kind) =>
      `  used_${kind} bigint NOT NULL DEFAULT 0,\n  reserved_${kind} bigint NOT NULL DEFAULT 0,`,
  )
  .join('\n');

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'state ports: keys, credit usage, keyless, idempotency, watches, manifest signing keys',
    sql: `
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  hash text NOT NULL,
  plan text NOT NULL,
  label text,
  created_at text NOT NULL,
  revoked_at text
);
CREATE TABLE credit_usage (
  account_id text NOT NULL,
  period_start text NOT NULL,
${usageColumns}
  PRIMARY KEY (account_id, period_start)
);
CREATE TABLE keyless_usage (
  day text NOT NULL,
  client text NOT NULL,
  used integer NOT NULL,
  PRIMARY KEY (day, client)
);
CREATE TABLE idempotency (
  key_id text NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  result text,
  leader text NOT NULL,
  lead_until timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (key_id, key)
);
CREATE INDEX idempotency_expiry ON idempotency (expires_at);
CREATE TABLE watches (
  key_id text NOT NULL,
  watch_id text NOT NULL,
  source_id text NOT NULL,
  record_key text NOT NULL,
  created_at text NOT NULL,
  PRIMARY KEY (key_id, watch_id)
);
-- One round trip per create: the per-key lock makes the count exact against creates on every node; an empty
-- result means the key already holds p_max watches.
CREATE FUNCTION create_watch(p_key_id text, p_watch_id text, p_source_id text, p_record_key text,
  p_created_at text, p_max integer) RETURNS SETOF watches LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(7083, hashtext(p_key_id));
  RETURN QUERY SELECT * FROM watches WHERE key_id = p_key_id AND watch_id = p_watch_id;
  IF FOUND THEN RETURN; END IF;
  IF (SELECT count(*) FROM watches WHERE key_id = p_key_id) >= p_max THEN RETURN; END IF;
  RETURN QUERY INSERT INTO watches (key_id, watch_id, source_id, record_key, created_at)
    VALUES (p_key_id, p_watch_id, p_source_id, p_record_key, p_created_at) RETURNING *;
END
$fn$;
CREATE TABLE manifest_key_ring (
  id integer PRIMARY KEY CHECK (id = 1),
  ring jsonb NOT NULL
);
`,
  },
];
