/**
 * The in-memory twin of the account store's keys: the same issuing, hashing (only the hash is kept),
 * revocation and 24h-pass expiry, in a Map. For tests and for a deployment with no disk state.
 */
import type { Account } from '../ports/accounts.js';
import {
  accountOf,
  issueKey,
  verifiedAccount,
  type CreatedKey,
  type KeyRecord,
} from './key-records.js';
import { hashKey, isWellFormedKey, keyIdOf } from './keys.js';
import { assertActive } from './periods.js';
import type { PlanId } from './plans.js';

export class MemoryKeyRegistry {
  private readonly records = new Map<string, KeyRecord>();

  createKey(plan: PlanId, now: Date, label?: string): CreatedKey {
    const { record, key } = issueKey(plan, now, label, (id) => this.records.has(id));
    this.records.set(record.id, record);
    return { ...accountOf(record), key };
  }

  /** false when no such key exists or it was already revoked. Takes effect on the next request. */
  revokeKey(id: string, now: Date): boolean {
    const record = this.records.get(id);
    if (record === undefined || record.revoked_at !== null) return false;
    this.records.set(id, { ...record, revoked_at: now.toISOString() });
    return true;
  }

  /** The active account of a key id; null when the id is unknown or revoked (as AccountStore.accountById). */
  accountById(id: string): Account | null {
    const record = this.records.get(id);
    return record === undefined || record.revoked_at !== null ? null : accountOf(record);
  }

  /** null for a malformed, unknown or revoked key; throws AppError payment_required for an expired 24h Pass. */
  authenticate(rawKey: string, now: Date): Account | null {
    if (!isWellFormedKey(rawKey)) return null;
    const hash = hashKey(rawKey);
    const account = verifiedAccount(this.records.get(keyIdOf(hash)), hash);
    if (account !== null) assertActive(account, now);
    return account;
  }
}
