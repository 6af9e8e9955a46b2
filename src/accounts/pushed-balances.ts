/**
 * A front thread's balances of keys, as the main thread's ledger sent them with the replies of lease operations
 * (src/ports/remote/serve-ports.ts): the X-RateLimit headers and `remainingField` values of a keyed request read
 * them instead of calling the main thread. A request that spent credits finds the balance read after its own
 * turn's spend (the spend's reply is recorded before its commit resolves), as exact as a balance call after the
 * commit was; one that spent nothing (a replay) reads a balance at most `limits.leases.balanceSnapshotMs` old,
 * or asks the ledger.
 */
import { limits } from '../limits.js';
import type { Account } from '../ports/accounts.js';
import type { Balance, CreditMeter } from '../ports/credits.js';
import type { BalanceNote } from '../ports/remote/wire.js';
import { periodOf } from './periods.js';

export class PushedBalances implements Pick<CreditMeter, 'balance'> {
  /** By key id, the latest last: the first is the one to drop past limits.caches.authKeysMax. */
  private readonly notes = new Map<string, BalanceNote>();
  /** Balances answered from a note, and asked of the ledger (tests, the bench). */
  served = 0;
  asked = 0;

  constructor(private readonly ledger: Pick<CreditMeter, 'balance'>) {}

  /** Replies arrive in the order the main thread read them, so the latest is the newest. */
  record(notes: readonly BalanceNote[]): void {
    for (const note of notes) {
      this.notes.delete(note.account_id);
      this.notes.set(note.account_id, note);
    }
    while (this.notes.size > limits.caches.authKeysMax) {
      const oldest = this.notes.keys().next();
      if (oldest.done === true) break;
      this.notes.delete(oldest.value);
    }
  }

  async balance(account: Account, now: Date): Promise<Balance> {
    const note = this.notes.get(account.id);
    if (
      note !== undefined &&
      now.getTime() - note.at.getTime() <= limits.leases.balanceSnapshotMs &&
      periodOf(account, note.at).start.getTime() === periodOf(account, now).start.getTime()
    ) {
      this.served++;
      return note.balance;
    }
    this.asked++;
    return this.ledger.balance(account, now);
  }
}
