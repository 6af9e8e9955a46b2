/**
 * Balances of keys as the ledger's replies to lease spends carried them, so the X-RateLimit headers and
 * `remainingField` values of a keyed request need no read of their own: a REST front thread's (the main thread's
 * ledger sends them with every lease reply, src/ports/remote/serve-ports.ts) and a cluster node's (PostgreSQL's
 * spend answers with the usage rows it changed, src/postgres/meter-leases.ts).
 *
 * A request that spent credits finds the balance read after its own turn's spend (the spend's reply is recorded
 * before its commit resolves), as exact as a balance call after the commit was; one that spent nothing (a replay)
 * reads a balance at most `limits.leases.balanceSnapshotMs` old, or asks the ledger. A charge saved with an
 * idempotent run's result does not pass through a spend: once it settles, the key's notes read before it are void
 * (`charged`), so the request that paid it asks the ledger and sees its debit.
 */
import { limits } from '../limits.js';
import type { Account } from '../ports/accounts.js';
import type { Balance, CreditMeter } from '../ports/credits.js';
import type { BalanceNote } from '../ports/remote/wire.js';
import { periodOf } from './periods.js';

/** A key's balance as a reply carried it. */
export interface HeldBalance {
  readonly account_id: string;
  /** When it was read, or earlier (never later: a note must not look newer than the read). */
  readonly at: Date;
  /** The balance for `account` at `now`; undefined when the note is of another period. */
  balanceAt(account: Account, now: Date): Balance | undefined;
}

/** A front thread's note: a whole Balance, of the period `at` was in. */
export function heldBalanceOf(note: BalanceNote): HeldBalance {
  return {
    account_id: note.account_id,
    at: note.at,
    balanceAt: (account, now) =>
      periodOf(account, note.at).start.getTime() === periodOf(account, now).start.getTime()
        ? note.balance
        : undefined,
  };
}

export class PushedBalances implements Pick<CreditMeter, 'balance'> {
  /** By key id, the latest last: the first is the one to drop past limits.caches.authKeysMax. */
  private readonly notes = new Map<string, HeldBalance>();
  /** By key id, when its last charge settled: notes read before it do not count it. */
  private readonly charges = new Map<string, number>();
  /** Balances answered from a note, and asked of the ledger (tests, the bench). */
  served = 0;
  asked = 0;

  constructor(private readonly ledger: Pick<CreditMeter, 'balance'>) {}

  /** Replies arrive in the order their reads were made, so the latest is the newest. */
  record(notes: readonly HeldBalance[]): void {
    for (const note of notes) {
      if (note.at.getTime() <= (this.charges.get(note.account_id) ?? -Infinity)) continue;
      this.notes.delete(note.account_id);
      this.notes.set(note.account_id, note);
    }
    dropOldest(this.notes);
  }

  /** A charge of the key settled at `at` without a spend reply: what was read before it does not count it. */
  charged(accountId: string, at: Date): void {
    this.notes.delete(accountId);
    this.charges.delete(accountId);
    this.charges.set(accountId, at.getTime());
    dropOldest(this.charges);
  }

  async balance(account: Account, now: Date): Promise<Balance> {
    const note = this.notes.get(account.id);
    const balance =
      note !== undefined && now.getTime() - note.at.getTime() <= limits.leases.balanceSnapshotMs
        ? note.balanceAt(account, now)
        : undefined;
    if (balance !== undefined) {
      this.served++;
      return balance;
    }
    this.asked++;
    return this.ledger.balance(account, now);
  }
}

function dropOldest(map: Map<string, unknown>): void {
  while (map.size > limits.caches.authKeysMax) {
    const oldest = map.keys().next();
    if (oldest.done === true) break;
    map.delete(oldest.value);
  }
}
