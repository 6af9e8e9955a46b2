/**
 * `ibanqa keys list`: each key with its balances, read from the same ledger the service meters against (the data
 * directory's LMDB, or the shared database with --database-url). The JSON form carries the same `credits` object
 * as GET /usage.
 */
import type { KeyInfo } from './accounts/account-store.js';
import { creditKinds } from './domain/plans/plans.js';
import type { KeyAdmin } from './cli-state.js';
import { usageReport } from './ops/accounts/usage-report.js';

type Credits = ReturnType<typeof usageReport>['credits'];

export interface KeyListing extends KeyInfo {
  readonly credits: Credits;
}

export async function listKeysWithBalances(keys: KeyAdmin, now: Date): Promise<KeyListing[]> {
  const listed: KeyListing[] = [];
  for (const key of await keys.listKeys()) {
    const balance = await keys.balance(key, now);
    listed.push({ ...key, credits: usageReport({ account: key, balance, at: now }).credits });
  }
  return listed;
}

/** "api_calls 3/10000" per kind ("3/-" without a cap), then when the period ends. */
export function balanceText(credits: Credits): string {
  const parts = creditKinds.map((kind) => {
    const entry = credits[kind];
    return `${kind} ${entry.used}/${entry.allowance ?? '-'}`;
  });
  const end = credits.api_calls.period_end;
  return `${parts.join(', ')}; ${end === null ? 'lifetime allowance' : `period ends ${end}`}`;
}

export function keyLine(key: KeyListing): string {
  const revoked = key.revoked_at ? `  revoked ${key.revoked_at}` : '';
  const label = key.label ? `  ${key.label}` : '';
  return `${key.id}  ${key.plan.padEnd(10)} created ${key.created_at}${revoked}${label}\n    ${balanceText(key.credits)}`;
}
