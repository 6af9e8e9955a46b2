/**
 * The manifest signing key ring in the shared database (one row), so every node signs with the same key and
 * publishes the same public keys. A change runs in one transaction under an advisory lock: nodes starting at once
 * create one key, and a rotation (`ibanqa manifest keygen --database-url ...`) is seen by every node at its next
 * start. The private key is as safe as the database and its backups: restrict access to the table accordingly.
 */
import type pg from 'pg';
import { checkedRing, type KeyRingStorage } from '../signing/key-ring.js';
import { inTransaction } from './transaction.js';

/** Distinguishes the key ring lock from other advisory locks of the schema. */
const KEY_RING_LOCK_CLASS = 0x1bac;

export function pgKeyRing(pool: pg.Pool): KeyRingStorage {
  return {
    update: (change) =>
      inTransaction(pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [
          KEY_RING_LOCK_CLASS,
        ]);
        const { rows } = await client.query<{ ring: unknown }>(
          'SELECT ring FROM manifest_key_ring WHERE id = 1',
        );
        const stored =
          rows[0] === undefined ? undefined : checkedRing(rows[0].ring, 'manifest_key_ring');
        const { result, write } = change(stored);
        if (write !== undefined)
          await client.query(
            'INSERT INTO manifest_key_ring (id, ring) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET ring = EXCLUDED.ring',
            [JSON.stringify(write)],
          );
        return result;
      }),
  };
}
