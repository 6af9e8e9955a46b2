/**
 * Rate-limit style headers on keyed REST answers, so a client sees its balance before it meets a 429.
 * They describe api_calls, the credit every metered request spends; GET /usage lists every kind.
 * Names follow the common X-RateLimit-* convention; the keyless /validate answer uses the same names, and
 * X-RateLimit-Reset is an ISO 8601 instant there too (not epoch seconds), so one parser reads both.
 */
import type { Account } from '../accounts/account-store.js';
import type { Balance } from '../accounts/meter.js';

export const rateLimitHeaderNames = {
  limit: 'X-RateLimit-Limit',
  remaining: 'X-RateLimit-Remaining',
  reset: 'X-RateLimit-Reset',
} as const;

/**
 * Limit and Remaining are absent on the unlimited plan (no cap to state); Reset is absent on Free, whose
 * allowance never renews, and is the expiry on a 24h Pass, after which nothing renews either.
 */
export function usageHeaders(account: Account, balance: Balance): Record<string, string> {
  const apiCalls = balance.api_calls;
  const headers: Record<string, string> = {};
  if (apiCalls.limit !== null && apiCalls.remaining !== null) {
    headers[rateLimitHeaderNames.limit] = String(apiCalls.limit);
    headers[rateLimitHeaderNames.remaining] = String(apiCalls.remaining);
  }
  const reset = apiCalls.resets_at ?? account.expires_at;
  if (reset !== null) headers[rateLimitHeaderNames.reset] = reset;
  return headers;
}
