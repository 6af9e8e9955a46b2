/**
 * Every table of the shared database, as numbered migrations applied in order (migrate.ts, at every node's start
 * and by `ibanqa db migrate`): the state ports, the credit leases, the registry's publications, the statement
 * reviews. Kept as TypeScript strings (not .sql files) so the bundle carries them. A migration is never edited once
 * released: a change is a new one, appended with the next version.
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
  {
    version: 2,
    name: 'credit leases: credits a node holds from the ledger, returned on close or after their expiry',
    sql: `
-- One lease per (holder, account, period, kind). granted - spent credits of it are counted in credit_usage.reserved_*;
-- spent ones already moved to used_*. Deleting the row after returning granted - spent leaves the spent ones spent.
CREATE TABLE credit_leases (
  lease_id text PRIMARY KEY,
  holder text NOT NULL,
  account_id text NOT NULL,
  period_start text NOT NULL,
  kind text NOT NULL CHECK (kind IN (${creditKinds.map((kind) => `'${kind}'`).join(', ')})),
  granted bigint NOT NULL CHECK (granted >= 0),
  spent bigint NOT NULL DEFAULT 0 CHECK (spent >= 0 AND spent <= granted),
  expires_at timestamptz NOT NULL
);
CREATE INDEX credit_leases_expiry ON credit_leases (expires_at);
-- Moves p_amount of one kind between the row's columns: reserved += p_reserved, used += p_used.
CREATE FUNCTION credit_usage_add(p_account_id text, p_period_start text, p_kind text, p_reserved bigint,
  p_used bigint) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE format('UPDATE credit_usage SET %1$I = %1$I + $3, %2$I = %2$I + $4 WHERE account_id = $1 AND period_start = $2',
    'reserved_' || p_kind, 'used_' || p_kind) USING p_account_id, p_period_start, p_reserved, p_used;
END
$fn$;
-- Holds up to p_amount more credits for the lease (all of them when p_limit is NULL, no cap), in one transaction
-- under the usage row's lock: granted never exceeds what is neither used nor reserved, so no node overspends.
CREATE FUNCTION grant_lease(p_lease_id text, p_holder text, p_account_id text, p_period_start text, p_kind text,
  p_amount bigint, p_limit bigint, p_expires_at timestamptz, OUT granted bigint, OUT remaining bigint)
LANGUAGE plpgsql AS $fn$
DECLARE v_used bigint; v_reserved bigint;
BEGIN
  INSERT INTO credit_usage (account_id, period_start) VALUES (p_account_id, p_period_start) ON CONFLICT DO NOTHING;
  EXECUTE format('SELECT %I, %I FROM credit_usage WHERE account_id = $1 AND period_start = $2 FOR UPDATE',
    'used_' || p_kind, 'reserved_' || p_kind) INTO v_used, v_reserved USING p_account_id, p_period_start;
  IF p_limit IS NULL THEN
    granted := p_amount; remaining := NULL;
  ELSE
    granted := least(p_amount, greatest(0, p_limit - v_used - v_reserved));
    remaining := greatest(0, p_limit - v_used - v_reserved - granted);
  END IF;
  PERFORM credit_usage_add(p_account_id, p_period_start, p_kind, granted, 0);
  INSERT INTO credit_leases AS l (lease_id, holder, account_id, period_start, kind, granted, expires_at)
    VALUES (p_lease_id, p_holder, p_account_id, p_period_start, p_kind, granted, p_expires_at)
    ON CONFLICT (lease_id) DO UPDATE SET granted = l.granted + EXCLUDED.granted, expires_at = EXCLUDED.expires_at;
END
$fn$;
-- Every function locks the usage row before the lease row (a lease's account, period and kind never change, so
-- they are read unlocked first): two nodes granting, spending and returning on one key cannot deadlock.
CREATE FUNCTION lock_lease(p_lease_id text) RETURNS credit_leases LANGUAGE plpgsql AS $fn$
DECLARE v_lease credit_leases;
BEGIN
  SELECT * INTO v_lease FROM credit_leases WHERE lease_id = p_lease_id;
  IF NOT FOUND THEN RETURN NULL; END IF;
  PERFORM 1 FROM credit_usage WHERE account_id = v_lease.account_id AND period_start = v_lease.period_start FOR UPDATE;
  SELECT * INTO v_lease FROM credit_leases WHERE lease_id = p_lease_id FOR UPDATE;
  IF NOT FOUND THEN RETURN NULL; END IF;
  RETURN v_lease;
END
$fn$;
-- Records what requests spent from leases (one event-loop turn of a node; the caller sorts the leases by usage
-- row), all or nothing: a lease that no longer holds the amount (reclaimed as expired) fails the whole batch, so
-- none of its requests is acknowledged.
CREATE FUNCTION spend_leases(p_lease_ids text[], p_amounts bigint[], p_expires_at timestamptz) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE v_lease credit_leases;
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_lease_ids, 1), 0) LOOP
    v_lease := lock_lease(p_lease_ids[i]);
    IF v_lease.lease_id IS NULL OR v_lease.granted - v_lease.spent < p_amounts[i] THEN
      RAISE EXCEPTION 'credit lease % no longer holds % credits', p_lease_ids[i], p_amounts[i];
    END IF;
    UPDATE credit_leases SET spent = spent + p_amounts[i], expires_at = greatest(expires_at, p_expires_at)
      WHERE lease_id = p_lease_ids[i];
    PERFORM credit_usage_add(v_lease.account_id, v_lease.period_start, v_lease.kind, -p_amounts[i], p_amounts[i]);
  END LOOP;
END
$fn$;
-- Gives back p_amount unspent credits of a lease (every unspent one, and the row, when p_amount is NULL).
CREATE FUNCTION return_lease(p_lease_id text, p_amount bigint) RETURNS bigint LANGUAGE plpgsql AS $fn$
DECLARE v_lease credit_leases; v_back bigint;
BEGIN
  v_lease := lock_lease(p_lease_id);
  IF v_lease.lease_id IS NULL THEN RETURN 0; END IF;
  v_back := least(coalesce(p_amount, v_lease.granted - v_lease.spent), v_lease.granted - v_lease.spent);
  PERFORM credit_usage_add(v_lease.account_id, v_lease.period_start, v_lease.kind, -v_back, 0);
  IF p_amount IS NULL THEN
    DELETE FROM credit_leases WHERE lease_id = p_lease_id;
  ELSE
    UPDATE credit_leases SET granted = granted - v_back WHERE lease_id = p_lease_id;
  END IF;
  RETURN v_back;
END
$fn$;
-- Extends the holder's leases to p_expires_at; returns the ids it still holds (the others were reclaimed).
CREATE FUNCTION renew_leases(p_lease_ids text[], p_expires_at timestamptz) RETURNS SETOF text LANGUAGE plpgsql AS $fn$
DECLARE v_id text; v_lease credit_leases;
BEGIN
  FOR v_id IN SELECT lease_id FROM credit_leases WHERE lease_id = ANY(p_lease_ids)
      ORDER BY account_id, period_start, lease_id LOOP
    v_lease := lock_lease(v_id);
    CONTINUE WHEN v_lease.lease_id IS NULL;
    UPDATE credit_leases SET expires_at = greatest(expires_at, p_expires_at) WHERE lease_id = v_id;
    RETURN NEXT v_id;
  END LOOP;
END
$fn$;
-- Returns the unspent credits of every lease that expired before p_now (its holder died); spent ones stay spent.
CREATE FUNCTION reclaim_expired_leases(p_now timestamptz) RETURNS integer LANGUAGE plpgsql AS $fn$
DECLARE v_id text; v_lease credit_leases; v_count integer := 0;
BEGIN
  FOR v_id IN SELECT lease_id FROM credit_leases WHERE expires_at < p_now ORDER BY account_id, period_start, lease_id LOOP
    v_lease := lock_lease(v_id);
    -- Renewed (or returned) since the scan: its holder is alive.
    CONTINUE WHEN v_lease.lease_id IS NULL OR v_lease.expires_at >= p_now;
    PERFORM credit_usage_add(v_lease.account_id, v_lease.period_start, v_lease.kind,
      -(v_lease.granted - v_lease.spent), 0);
    DELETE FROM credit_leases WHERE lease_id = v_id;
    v_count := v_count + 1;
  END LOOP;
  RETURN v_count;
END
$fn$;
`,
  },
  {
    version: 3,
    name: 'registry publications: the chain of published registry imports every node replays',
    // IF NOT EXISTS: releases before this list created the table themselves (the registry publisher and follower),
    // so a database they used already holds it, with this shape and its rows.
    sql: `
-- One row per import a node committed and published: version is the registry version that import made (one more
-- than base_version, the version it was made on), fingerprint and base_fingerprint the registry fingerprints after
-- and before it. A node applies the rows after its own version in order, and only onto the registry the row was
-- made on, so every node passes through the same versions with the same fingerprints. payload is the import
-- itself (src/registry/publish/payload.ts), gzip-compressed; payload_sha256 is over the compressed bytes.
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
);
`,
  },
  {
    version: 4,
    name: 'statement reviews: review records with the analysis queue, encrypted uploads',
    // IF NOT EXISTS: releases before this list created these themselves (at the statement reviews' start).
    sql: `
-- record is the ReviewRecord as JSON (json, not jsonb: the report's keys keep their order, as the answers show
-- them). created_at and expires_at are the record's own ISO texts (the service's clock), compared in the "C"
-- collation, where fixed-width ISO texts sort in time order. claimed_by and claimed_until are the queue's lease
-- (src/statements/postgres/analysis-queue-pg.ts), judged on the database's clock; claims counts them.
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
-- What encryptUpload made (nonce | tag | ciphertext); stored_at tells an orphan from an upload whose review another
-- node is still recording.
CREATE TABLE IF NOT EXISTS statement_uploads (
  review_id text        PRIMARY KEY,
  sealed    bytea       NOT NULL,
  stored_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
  {
    version: 5,
    name: 'statement reviews: the fingerprint of the upload key every node must share',
    sql: `
-- One row: an HMAC of a fixed text under the upload key (never the key), written by the first node to start. A
-- node whose key gives another fingerprint refuses to start, since every upload it stored would be unreadable
-- elsewhere (upload_lost) and every upload stored elsewhere unreadable to it.
CREATE TABLE statement_upload_key (
  singleton   boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
  fingerprint text        NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
  {
    version: 6,
    name: 'credit leases: one set-based spend that answers with the usage rows it changed',
    sql: `
-- What spend_leases does, in three static statements whatever the number of leases (spend_leases runs three
-- queries and a dynamic UPDATE, planned anew, per lease), answering with the usage rows as they stand after it, in
-- the same transaction: a node states its requests' X-RateLimit headers from them instead of reading the row per
-- request. Locks: the usage rows first, sorted, as every other function does; a lease row is only ever locked by
-- whoever holds its usage row, so the leases need no order of their own.
CREATE FUNCTION spend_leases_usage(p_lease_ids text[], p_amounts bigint[], p_expires_at timestamptz)
RETURNS SETOF credit_usage LANGUAGE plpgsql AS $fn$
DECLARE v_spent integer;
BEGIN
  PERFORM 1 FROM credit_usage u
    WHERE (u.account_id, u.period_start) IN
      (SELECT l.account_id, l.period_start FROM credit_leases l WHERE l.lease_id = ANY(p_lease_ids))
    ORDER BY u.account_id, u.period_start FOR UPDATE;
  -- The expiry moves only when it gains a second or more: expires_at is indexed, and an update that leaves every
  -- indexed column as it was is a heap-only one (no new index entries), which a spend every few milliseconds is.
  UPDATE credit_leases l SET spent = l.spent + d.amount,
      expires_at = CASE WHEN p_expires_at - l.expires_at >= interval '1 second' THEN p_expires_at ELSE l.expires_at END
    FROM unnest(p_lease_ids, p_amounts) AS d(id, amount)
    WHERE l.lease_id = d.id AND l.granted - l.spent >= d.amount;
  GET DIAGNOSTICS v_spent = ROW_COUNT;
  IF v_spent < cardinality(p_lease_ids) THEN
    -- A lease was reclaimed (its holder stalled past the expiry) or returned: nothing of the batch is recorded.
    RAISE EXCEPTION 'a credit lease no longer holds the credits spent (% of % leases held them)',
      v_spent, cardinality(p_lease_ids);
  END IF;
  RETURN QUERY UPDATE credit_usage u SET ${creditKinds
    .map(
      (kind) =>
        `used_${kind} = u.used_${kind} + s.${kind}, reserved_${kind} = u.reserved_${kind} - s.${kind}`,
    )
    .join(',\n      ')}
    FROM (SELECT l.account_id, l.period_start, ${creditKinds
      .map((kind) => `coalesce(sum(d.amount) FILTER (WHERE l.kind = '${kind}'), 0) AS ${kind}`)
      .join(',\n        ')}
      FROM unnest(p_lease_ids, p_amounts) AS d(id, amount) JOIN credit_leases l ON l.lease_id = d.id
      GROUP BY l.account_id, l.period_start) s
    WHERE u.account_id = s.account_id AND u.period_start = s.period_start
    RETURNING u.*;
END
$fn$;
`,
  },
];
