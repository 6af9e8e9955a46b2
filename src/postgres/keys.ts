/**
 * API keys in the shared database: the same issuing, hashing (only the SHA-256 is stored), revocation and 24h-pass
 * expiry as the LMDB account store (src/accounts/key-records.ts), so a key created through any node or the CLI
 * works on every node. Successful lookups are cached per process for limits.caches.staleMsMax, as on LMDB, so a
 * revocation reaches every node within that time and the hot path stays a Map lookup.
 */
import type pg from 'pg';
import type { KeyInfo } from '../accounts/account-store.js';
import {
  accountOf,
  issueKey,
  verifiedAccount,
  type CreatedKey,
  type KeyRecord,
} from '../accounts/key-records.js';
import { hashKey, isWellFormedKey, keyIdOf } from '../accounts/keys.js';
import { assertActive } from '../accounts/periods.js';
import { planIds, type PlanId } from '../accounts/plans.js';
import { limits } from '../limits.js';
import type { Account, Authenticator } from '../ports/accounts.js';
import { inTransaction } from './transaction.js';

/** Distinguishes the demo-key lock from other advisory locks of the schema. */
const DEMO_KEYS_LOCK_CLASS = 0x1baa;

interface CachedAccount {
  readonly account: Account;
  readonly checkedAtMs: number;
}

export class PgKeyStore implements Authenticator {
  private readonly byHash = new Map<string, CachedAccount>();

  constructor(private readonly pool: pg.Pool) {}

  async createKey(plan: PlanId, now: Date, label?: string): Promise<CreatedKey> {
    return this.insertKey(this.pool, plan, now, label);
  }

  async authenticate(rawKey: string, now: Date): Promise<Account | null> {
    if (!isWellFormedKey(rawKey)) return null;
    const hash = hashKey(rawKey);
    const cached = this.byHash.get(hash);
    let account = cached?.account ?? null;
    if (cached === undefined || now.getTime() - cached.checkedAtMs > limits.caches.staleMsMax) {
      account = verifiedAccount(await this.record(keyIdOf(hash)), hash);
      if (account === null) {
        this.byHash.delete(hash);
        return null;
      }
      this.byHash.set(hash, { account, checkedAtMs: now.getTime() });
    }
    if (account === null) return null;
    assertActive(account, now);
    return account;
  }

  /** The active account of a key id (GET /usage, statement reviews); null when the id is unknown or revoked. */
  async accountById(id: string): Promise<Account | null> {
    const record = await this.record(id);
    return record === undefined || record.revoked_at !== null ? null : accountOf(record);
  }

  async listKeys(): Promise<KeyInfo[]> {
    const { rows } = await this.pool.query<KeyRecord>(
      'SELECT id, hash, plan, label, created_at, revoked_at FROM api_keys ORDER BY created_at, id',
    );
    return rows.map((record) => ({ ...accountOf(record), revoked_at: record.revoked_at }));
  }

  /** false when no such key exists or it was already revoked. Every node refuses it within staleMsMax. */
  async revokeKey(id: string, now: Date = new Date()): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL',
      [id, now.toISOString()],
    );
    for (const [hash, cached] of this.byHash)
      if (cached.account.id === id) this.byHash.delete(hash);
    return rowCount === 1;
  }

  /**
   * First start of a deployment only: one key per plan. Several nodes starting at once take a lock first, so
   * exactly one of them creates (and prints) the keys; every later start finds keys and returns [].
   */
  ensureDemoKeys(now: Date): Promise<CreatedKey[]> {
    return inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [
        DEMO_KEYS_LOCK_CLASS,
      ]);
      const { rows } = await client.query('SELECT 1 FROM api_keys LIMIT 1');
      const created: CreatedKey[] = [];
      if (rows.length === 0)
        for (const plan of planIds)
          created.push(await this.insertKey(client, plan, now, `demo ${plan}`));
      return created;
    });
  }

  private async record(id: string): Promise<KeyRecord | undefined> {
    const { rows } = await this.pool.query<KeyRecord>(
      'SELECT id, hash, plan, label, created_at, revoked_at FROM api_keys WHERE id = $1',
      [id],
    );
    return rows[0];
  }

  /** Ids are 48 bits of the hash: a collision is retried by issueKey; ON CONFLICT makes a lost race one too. */
  private async insertKey(
    db: Pick<pg.Pool, 'query'>,
    plan: PlanId,
    now: Date,
    label: string | undefined,
  ): Promise<CreatedKey> {
    const { record, key } = issueKey(plan, now, label, () => false);
    const { rowCount } = await db.query(
      'INSERT INTO api_keys (id, hash, plan, label, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, NULL) ON CONFLICT (id) DO NOTHING',
      [record.id, record.hash, record.plan, record.label, record.created_at],
    );
    if (rowCount !== 1) return this.insertKey(db, plan, now, label);
    return { ...accountOf(record), key };
  }
}
