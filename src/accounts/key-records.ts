/**
 * What a stored API key is and how a presented key is checked against it, shared by the LMDB account
 * store and the in-memory key registry so both issue, verify and expire keys the same way.
 */
import { unreachable } from '../assert.js';
import { AppError } from '../errors.js';
import type { Account } from '../ports/accounts.js';
import { generateRawKey, hashKey, hashesEqual, keyIdOf } from './keys.js';
import { expiresAtOf } from './periods.js';
import type { PlanId } from '../domain/plans/plans.js';
import { limits } from '../limits.js';

/**
 * Key ids are 48 bits of the hash: a collision is astronomically unlikely, but a retry costs nothing
 * and makes a duplicate id impossible rather than improbable.
 */
const MAX_ID_ATTEMPTS = 3;

/** What the operator sees once at creation: the only time the raw key exists outside the client. */
export interface CreatedKey extends Account {
  readonly key: string;
}

/** The stored form of a key: its hash, never the key. */
export interface KeyRecord {
  readonly id: string;
  readonly hash: string;
  readonly plan: PlanId;
  readonly label: string | null;
  readonly created_at: string;
  readonly revoked_at: string | null;
}

export function accountOf(record: KeyRecord): Account {
  const expiresAt = expiresAtOf(record);
  return Object.freeze({
    id: record.id,
    plan: record.plan,
    label: record.label,
    created_at: record.created_at,
    expires_at: expiresAt === null ? null : expiresAt.toISOString(),
  });
}

function checkLabel(label: string | undefined): string | null {
  if (label === undefined) return null;
  if (label.length === 0 || label.length > limits.accounts.keyLabelCharsMax) {
    throw new AppError(
      'invalid_argument',
      `key label must be 1 to ${limits.accounts.keyLabelCharsMax} characters`,
    );
  }
  return label;
}

/** A fresh key and its record, with an id `taken` does not already hold. */
export function issueKey(
  plan: PlanId,
  now: Date,
  label: string | undefined,
  taken: (id: string) => boolean,
): { record: KeyRecord; key: string } {
  const checkedLabel = checkLabel(label);
  for (let attempt = 0; attempt < MAX_ID_ATTEMPTS; attempt++) {
    const key = generateRawKey();
    const hash = hashKey(key);
    const id = keyIdOf(hash);
    if (taken(id)) continue;
    return {
      key,
      record: {
        id,
        hash,
        plan,
        label: checkedLabel,
        created_at: now.toISOString(),
        revoked_at: null,
      },
    };
  }
  return unreachable(`key id collided ${MAX_ID_ATTEMPTS} times in a row`);
}

/** The account of the key whose hash is `hash`, given the record stored under its id; null when missing or revoked. */
export function verifiedAccount(record: KeyRecord | undefined, hash: string): Account | null {
  if (record === undefined || record.revoked_at !== null || !hashesEqual(record.hash, hash))
    return null;
  return accountOf(record);
}
