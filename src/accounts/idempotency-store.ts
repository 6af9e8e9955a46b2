/**
 * Idempotency records for operations that must not run (or debit) twice: POST /us/routing/run keyed by
 * its request_id, full POST /us/routing/profile keyed by seed and target. Records live in the accounts
 * LMDB environment (sub-database 'idempotency'), so a replay after a restart still finds its result.
 *
 * Layout (one sub-database, two key families):
 *   "r <key id> <key>"              -> the record (fingerprint, saved result as JSON text, created_at, expires_at)
 *   "x <expires_at> <key id> <key>" -> the record key, so expired records are found in expiry order
 * Expired records are never replayed; a bounded sweep removes a few on every new claim.
 *
 * In-process: the first claim of a (key id, key) is the leader; claims that arrive while it runs await the
 * leader's promise instead of running again, so N concurrent identical requests run and debit once.
 *
 * The leader's result and its debit are one write transaction of the accounts environment (lmdb-js
 * `childTransaction`, aborted whole when a write in it throws): the record, its expiry entry and the ledger's counts
 * (the Meter's reservation, or a front thread's lease spends) commit together or not at all.
 */
import { assert } from '../assert.js';
import { AppError } from '../errors.js';
import type { Claim, IdempotencyRequest } from '../ports/idempotency.js';
import type { Charge, HeldCharge } from '../ports/credits.js';
import type { AccountStore } from './account-store.js';
import type { MeterLeaseLedger } from './meter-leases.js';
import type { Meter } from './meter.js';
import type { Table } from './table.js';
import { PendingWrites } from './pending-writes.js';
import { limits } from '../limits.js';

/** A space: never part of an ISO date, a key id or a record key, and (unlike NUL) plain text to lmdb's key encoding. */
const SEPARATOR = ' ';
const RECORD = 'r';
const EXPIRY = 'x';

export type { Claim, IdempotencyRequest } from '../ports/idempotency.js';

export interface IdempotencyRecord {
  readonly fingerprint: string;
  /** The saved output as JSON text: a replay is byte-for-byte the first answer. */
  readonly result: string;
  readonly created_at: string;
  readonly expires_at: string;
}

type Entry = IdempotencyRecord | string;

interface InFlight {
  readonly fingerprint: string;
  readonly promise: Promise<unknown>;
}

function recordKey(keyId: string, key: string): string {
  return [RECORD, keyId, key].join(SEPARATOR);
}

function expiryKey(expiresAt: string, keyId: string, key: string): string {
  return [EXPIRY, expiresAt, keyId, key].join(SEPARATOR);
}

/** The 409 of a key used with another fingerprint (every implementation of the port answers it the same). */
export function conflict(request: IdempotencyRequest): AppError {
  return new AppError(
    'conflict',
    `${request.label} was already used with a different request: get a new quote and a new request_id`,
    {
      idempotency_conflict: true,
    },
  );
}

/** The result a leader's followers wait for, settled by the leader once. */
export interface LeaderResult {
  readonly promise: Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  /** Asserts this is the leader's one settlement (complete or abandon). */
  readonly once: () => void;
}

export function leaderResult(): LeaderResult {
  let resolve!: (value: unknown) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<unknown>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  promise.catch(() => undefined); // followers handle the failure; nobody may be listening
  let settled = false;
  const once = () => {
    assert(!settled, 'an idempotency claim settles once');
    settled = true;
  };
  return { promise, resolve, reject, once };
}

/** What a store gives the leader's claim: how to save its result durably, and how to free the key after an abandon. */
export interface LeaderParts {
  readonly result: LeaderResult;
  /** The store's in-process claims: the leader's entry stays until its result is committed. */
  readonly inflight: Map<string, unknown>;
  readonly mapKey: string;
  /** Resolves when the result (JSON text) and the charge are committed together; rejects when neither is. */
  readonly save: (text: string, now: Date, charge: HeldCharge | undefined) => Promise<unknown>;
  /** Frees the key in the store after an abandon (a store that writes nothing while running needs nothing). */
  readonly release?: () => void;
  readonly track: (write: Promise<unknown>) => void;
}

/** The leader's claim, the same over every store: complete or abandon, exactly once. */
export function leaderClaim(parts: LeaderParts): Claim {
  const { result, inflight, mapKey } = parts;
  return {
    kind: 'leader',
    complete: (output, now, charge) => {
      result.once();
      const text = JSON.stringify(output);
      const written = parts.save(text, now, charge);
      // A stop waits for it; its failure is the caller's (rejected below), not one for flush() to rethrow.
      parts.track(written.catch(() => undefined));
      // Followers wait for the commit too (until then they find the leader's promise instead of a missing record):
      // a result is handed out only once it is saved and paid for, and a failed save fails them as an abandon does.
      // The caller answers after this: an acknowledged run is committed and replays after a crash.
      return written.then(
        () => {
          inflight.delete(mapKey);
          // Followers get the same JSON round trip as a later replay would.
          result.resolve(JSON.parse(text) as unknown);
        },
        (error: unknown) => {
          inflight.delete(mapKey);
          result.reject(error);
          parts.release?.();
          throw error;
        },
      );
    },
    abandon: (error) => {
      result.once();
      inflight.delete(mapKey);
      result.reject(error);
      parts.release?.();
    },
  };
}

/** The ledger whose counts a leader's charge writes, and the write transaction the records share with it. */
export interface RecordsLedger {
  readonly meter: Meter;
  /** The leases of the same Meter that front threads spend (a charge that arrives as lease spends). */
  readonly leases: MeterLeaseLedger;
  /** Runs `body` as one write transaction: its writes commit together, or none does when it throws. */
  transaction(body: () => void): Promise<unknown>;
}

/** The in-memory twin's transaction: the body runs at once, and a MemoryTable write cannot fail half-way. */
export function immediateTransaction(body: () => void): Promise<unknown> {
  try {
    body();
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/** Writes the charge's counts inside the running transaction; returns what undoes them in memory. */
function chargeWithin(ledger: RecordsLedger, charge: Charge): () => void {
  return charge.kind === 'reservation'
    ? ledger.meter.commitWithin(charge.reservation, charge.actual)
    : ledger.leases.spendWithin(charge.spends, charge.expiresAt);
}

export class IdempotencyStore {
  private readonly inflight = new Map<string, InFlight>();
  private readonly writes = new PendingWrites();

  /**
   * Over any table: the accounts environment's in production, a MemoryTable for the in-memory twin. Without a
   * ledger a leader completes without a charge only (tests of the records alone).
   */
  constructor(
    private readonly db: Table<Entry>,
    private readonly ledger?: RecordsLedger,
  ) {}

  /** Over the accounts environment; `ledger`: the Meter of the same environment and its leases. */
  static open(
    accounts: AccountStore,
    ledger?: Omit<RecordsLedger, 'transaction'>,
  ): IdempotencyStore {
    const db = accounts.subDatabase<Entry>('idempotency');
    return new IdempotencyStore(
      db,
      ledger === undefined
        ? undefined
        : { ...ledger, transaction: (body) => db.childTransaction(body) },
    );
  }

  /**
   * Synchronous, so a check and the leader's registration happen in one step: two requests can never
   * both become leader. Throws AppError conflict when the key was used with another fingerprint.
   */
  claim(keyId: string, request: IdempotencyRequest, now: Date): Claim {
    const mapKey = recordKey(keyId, request.key);
    const running = this.inflight.get(mapKey);
    if (running !== undefined) {
      if (running.fingerprint !== request.fingerprint) throw conflict(request);
      return { kind: 'replay', result: running.promise };
    }
    const saved = this.get(keyId, request.key, now);
    if (saved !== undefined) {
      if (saved.fingerprint !== request.fingerprint) throw conflict(request);
      return { kind: 'replay', result: Promise.resolve(JSON.parse(saved.result) as unknown) };
    }
    this.sweep(now, limits.accounts.idempotencySweepBatch);
    return this.lead(keyId, mapKey, request);
  }

  /** The live record of (key id, key), or undefined when there is none or it has expired. */
  get(keyId: string, key: string, now: Date): IdempotencyRecord | undefined {
    const entry = this.db.get(recordKey(keyId, key));
    if (entry === undefined || typeof entry === 'string') return undefined;
    return Date.parse(entry.expires_at) > now.getTime() ? entry : undefined;
  }

  /** Removes up to `max` records whose expiry is at or before `now`; returns how many. */
  sweep(now: Date, max: number): number {
    let removed = 0;
    // Exclusive end: every ISO expiry up to and including `now` sorts before `now` + 1 ms (fixed-width ISO text).
    const end = [EXPIRY, new Date(now.getTime() + 1).toISOString()].join(SEPARATOR);
    for (const { key, value } of this.db.getRange({ start: EXPIRY + SEPARATOR, end, limit: max })) {
      this.track(this.db.remove(key));
      const record = typeof value === 'string' ? this.db.get(value) : undefined;
      // The record key may since hold a newer record (an expired key claimed again): keep that one.
      if (
        typeof value === 'string' &&
        record !== undefined &&
        typeof record !== 'string' &&
        Date.parse(record.expires_at) <= now.getTime()
      ) {
        this.track(this.db.remove(value));
      }
      removed++;
    }
    return removed;
  }

  /** Resolves when every record write so far is committed; rethrows a failed write once. */
  async flush(): Promise<void> {
    await this.writes.flush();
  }

  /** Claims still running (tests and shutdown checks). */
  get inFlightCount(): number {
    return this.inflight.size;
  }

  private lead(keyId: string, mapKey: string, request: IdempotencyRequest): Claim {
    const result = leaderResult();
    this.inflight.set(mapKey, { fingerprint: request.fingerprint, promise: result.promise });
    return leaderClaim({
      result,
      inflight: this.inflight,
      mapKey,
      track: (write) => this.track(write),
      save: (text, now, charge) => {
        const record: IdempotencyRecord = {
          fingerprint: request.fingerprint,
          result: text,
          created_at: now.toISOString(),
          expires_at: request.expiresAt.toISOString(),
        };
        const write = () => {
          void this.db.put(mapKey, record);
          void this.db.put(expiryKey(record.expires_at, keyId, request.key), mapKey);
        };
        if (charge === undefined && this.ledger === undefined)
          return Promise.all([
            this.db.put(mapKey, record),
            this.db.put(expiryKey(record.expires_at, keyId, request.key), mapKey),
          ]);
        return this.saveCharged(write, charge);
      },
    });
  }

  /**
   * The record's writes and the charge's counts in one transaction. The ledger's counts change in memory only
   * inside it, so a group write of the Meter issued meanwhile never carries a charge whose record may not commit;
   * when the transaction aborts (or never ran), the counts are undone and the reservation refunded.
   */
  private async saveCharged(write: () => void, held: HeldCharge | undefined): Promise<void> {
    const ledger = this.ledger;
    assert(
      ledger !== undefined,
      'a charged idempotency record needs the ledger of its environment',
    );
    let undo: (() => void) | null = null;
    let ran = false;
    try {
      await ledger.transaction(() => {
        ran = true;
        const undoCharge = held === undefined ? () => undefined : chargeWithin(ledger, held.charge);
        try {
          write();
        } catch (error) {
          undoCharge();
          throw error;
        }
        undo = undoCharge;
      });
    } catch (error) {
      (undo as (() => void) | null)?.();
      if (!ran && held?.charge.kind === 'reservation') ledger.meter.refund(held.charge.reservation);
      held?.settled(false);
      throw error;
    }
    held?.settled(true);
  }

  private track(write: Promise<unknown>): void {
    this.writes.track(write).catch(() => undefined); // kept and rethrown by flush()
  }
}
