/**
 * Idempotency records in the shared database, so a request_id runs once across every node. The row of (key id,
 * key) is the claim: the first INSERT leads (a unique key, `INSERT ... ON CONFLICT`), and every other claim, on
 * any node, finds the row and either replays its saved result, is a conflict (another fingerprint), or waits for
 * the leader's result by polling the row. Inside one process, claims of a running key wait on the local leader's
 * promise first, as with LMDB, so a burst on one node costs one row.
 *
 * A leader that abandons deletes the row, and a waiting claim on another node then leads itself (the request
 * runs there). A node that dies mid-run leaves the row without a result: after limits.postgres.idempotencyLeaderMsMax
 * the next claim takes it over. An expired record is taken over by the next claim like a missing one.
 *
 * The leader's result and its debit are ONE statement, so one transaction: the UPDATE that saves the result, and in
 * the same statement the settlement of its reservation on the usage row (PgMeter) or the spend of its credits from
 * leases (`spend_leases`, a node or front thread that reserves from leases). The debit applies only if the row was
 * saved (the lead is still this node's), and a failing debit fails the save: both are committed, or neither.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import {
  conflict,
  leaderClaim,
  leaderResult,
  type LeaderResult,
} from '../accounts/idempotency-store.js';
import { PendingWrites } from '../accounts/pending-writes.js';
import { limits } from '../limits.js';
import type { Claim, IdempotencyPort, IdempotencyRequest } from '../ports/idempotency.js';
import type { Charge, HeldCharge } from '../ports/credits.js';
import type { PgMeter } from './meter.js';
import { unflushed } from './transaction.js';
import { settleRowSet } from './usage-sql.js';

interface InFlight {
  readonly fingerprint: string;
  readonly promise: Promise<unknown>;
}

type Won = { readonly leader: string } | { readonly saved: string };

const claimStatement = `INSERT INTO idempotency AS i (key_id, key, fingerprint, result, leader, lead_until, created_at, expires_at)
VALUES ($1, $2, $3, NULL, $4, $5, $6, $7)
ON CONFLICT (key_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, result = NULL, leader = EXCLUDED.leader,
  lead_until = EXCLUDED.lead_until, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
WHERE i.expires_at <= EXCLUDED.created_at OR (i.result IS NULL AND i.lead_until <= EXCLUDED.created_at)
RETURNING leader`;

/** Saves the leader's result: $1 key id, $2 key, $3 leader token, $4 result, $5 created_at. */
const saveStatement =
  'UPDATE idempotency SET result = $4, created_at = $5 WHERE key_id = $1 AND key = $2 AND leader = $3 RETURNING 1';

/** Saves the result and settles its reservation on the usage row: $6 account, $7 period start, then settleRowSet. */
const saveSettledStatement = `WITH saved AS (${saveStatement}),
charged AS (
  UPDATE credit_usage SET ${settleRowSet(8)}
  WHERE account_id = $6 AND period_start = $7 AND EXISTS (SELECT 1 FROM saved)
)
SELECT 1 AS saved FROM saved`;

/** Saves the result and spends its credits from leases: $6 lease ids, $7 amounts, $8 the leases' new expiry. */
const saveSpentStatement = `WITH saved AS (${saveStatement})
SELECT 1 AS saved, spend_leases($6::text[], $7::bigint[], $8) FROM saved`;

export class PgIdempotency implements IdempotencyPort {
  private readonly inflight = new Map<string, InFlight>();
  private readonly writes = new PendingWrites();

  /** `ledger`: the meter whose own reservations a charge may settle (the others arrive as lease spends). */
  constructor(
    private readonly pool: pg.Pool,
    private readonly ledger?: PgMeter,
  ) {}

  async claim(keyId: string, request: IdempotencyRequest, now: Date): Promise<Claim> {
    const mapKey = `${keyId} ${request.key}`;
    const running = this.inflight.get(mapKey);
    if (running !== undefined) {
      if (running.fingerprint !== request.fingerprint) throw conflict(request);
      return { kind: 'replay', result: running.promise };
    }
    const local = leaderResult();
    this.inflight.set(mapKey, { fingerprint: request.fingerprint, promise: local.promise });
    try {
      const won = await this.win(keyId, request, now);
      if ('leader' in won) return this.lead(keyId, mapKey, request, won.leader, local);
      const value = JSON.parse(won.saved) as unknown;
      this.inflight.delete(mapKey);
      local.resolve(value);
      return { kind: 'replay', result: local.promise };
    } catch (error) {
      this.inflight.delete(mapKey);
      local.reject(error);
      throw error;
    }
  }

  /** Resolves when every record write so far is committed; rethrows a failed write once. */
  async flush(): Promise<void> {
    await this.writes.flush();
  }

  /** Leads, or waits until the row holds a saved result (or is free again); throws a conflict. */
  private async win(keyId: string, request: IdempotencyRequest, claimedAt: Date): Promise<Won> {
    const startedMs = performance.now();
    let pollMs: number = limits.postgres.idempotencyPollMsMin;
    for (;;) {
      const now = new Date(claimedAt.getTime() + (performance.now() - startedMs));
      const token = randomUUID();
      const { rows } = await unflushed<{ leader: string }>(this.pool, claimStatement, [
        keyId,
        request.key,
        request.fingerprint,
        token,
        new Date(now.getTime() + limits.postgres.idempotencyLeaderMsMax),
        now,
        request.expiresAt,
      ]);
      if (rows[0]?.leader === token) {
        this.sweep(now);
        return { leader: token };
      }
      const held = await this.pool.query<{ fingerprint: string; result: string | null }>(
        'SELECT fingerprint, result FROM idempotency WHERE key_id = $1 AND key = $2',
        [keyId, request.key],
      );
      const row = held.rows[0];
      if (row === undefined) continue; // its leader abandoned in between: claim again
      if (row.fingerprint !== request.fingerprint) throw conflict(request);
      if (row.result !== null) return { saved: row.result };
      // Led on another node and still running: wait for its result.
      await sleep(pollMs);
      pollMs = Math.min(pollMs * 2, limits.postgres.idempotencyPollMsMax);
    }
  }

  private lead(
    keyId: string,
    mapKey: string,
    request: IdempotencyRequest,
    token: string,
    result: LeaderResult,
  ): Claim {
    const row = [keyId, request.key, token];
    return leaderClaim({
      result,
      inflight: this.inflight,
      mapKey,
      track: (write) => this.track(write),
      // A synchronous commit: the saved result replays on every node, also after a crash of this one.
      save: (text, now, charge) => this.save([...row, text, now], charge),
      release: () =>
        this.track(
          this.pool.query(
            'DELETE FROM idempotency WHERE key_id = $1 AND key = $2 AND leader = $3',
            row,
          ),
        ),
    });
  }

  /** One statement: the result and its charge commit together, or neither does (the charge is then refunded). */
  private async save(values: readonly unknown[], held: HeldCharge | undefined): Promise<void> {
    try {
      const { rows } = await this.pool.query(...this.saveQuery(values, held?.charge));
      if (rows.length === 0)
        throw new Error(
          'idempotency lead was taken over before its result was saved: nothing saved, nothing charged',
        );
    } catch (error) {
      if (held?.charge.kind === 'reservation') await this.ledger?.refund(held.charge.reservation);
      held?.settled(false);
      throw error;
    }
    if (held?.charge.kind === 'reservation') this.ledger?.settledWithin(held.charge.reservation);
    held?.settled(true);
  }

  private saveQuery(values: readonly unknown[], charge: Charge | undefined): [string, unknown[]] {
    if (charge === undefined) return [saveStatement, [...values]];
    if (charge.kind === 'leases') {
      // One order for every node's locks, as PgLeaseLedger.spend (one charge is one key and period).
      const spends = [...charge.spends].sort((a, b) => a.lease_id.localeCompare(b.lease_id));
      return [
        saveSpentStatement,
        [
          ...values,
          spends.map((spend) => spend.lease_id),
          spends.map((spend) => spend.amount),
          charge.expiresAt,
        ],
      ];
    }
    const ledger = this.ledger;
    if (ledger === undefined)
      throw new Error('a reservation charged with an idempotency record needs its PgMeter');
    const { reservation, actual } = charge;
    return [
      saveSettledStatement,
      [
        ...values,
        reservation.account_id,
        reservation.period_start,
        ...ledger.rowSettlement(reservation, actual),
      ],
    ];
  }

  /** A few expired records per new lead, as the LMDB store sweeps: bounded work per request. */
  private sweep(now: Date): void {
    this.track(
      this.pool.query(
        'DELETE FROM idempotency WHERE ctid = ANY(ARRAY(SELECT ctid FROM idempotency WHERE expires_at <= $1 LIMIT $2))',
        [now, limits.accounts.idempotencySweepBatch],
      ),
    );
  }

  private track(write: Promise<unknown>): void {
    this.writes.track(write).catch(() => undefined); // kept and rethrown by flush()
  }
}
