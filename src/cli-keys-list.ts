/**
 * `ibanqa keys list`: each key with its balances, read from the same ledger the service meters against
 * (usage reaches LMDB at most limits.accounts.usageWriteDelayMs after a request, so a running service's last 100 ms may
 * be missing here). The JSON form carries the same `credits` object as GET /usage.
 */
import type { AccountStore, KeyInfo } from './accounts/account-store.js';
import { Meter } from './accounts/meter.js';
import { creditKinds } from './domain/plans/plans.js';
import { usageReport } from './ops/accounts/usage-report.js';

type Credits = ReturnType<typeof usageReport>['credits'];

export interface KeyListing extends KeyInfo {
  readonly credits: Credits;
}

export function listKeysWithBalances(store: AccountStore, now: Date): KeyListing[] {
  const meter = Meter.open(store);
  return store.listKeys().map((key) => ({
    ...key,
    credits: usageReport({ account: key, balance: meter.balance(key, now), at: now }).credits,
  }));
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
