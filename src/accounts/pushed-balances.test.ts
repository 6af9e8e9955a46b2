// Goal: balances carried by ledger replies answer a key's X-RateLimit headers only while they can be true: not past
// limits.leases.balanceSnapshotMs, not for another period, and never one read before a charge that settled without a
// spend reply (an idempotent run's debit); then the ledger is asked. Method: PushedBalances over a counting ledger,
// notes with hand-set read times, a Starter account (calendar months, UTC).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { limits } from '../limits.js';
import type { Account } from '../ports/accounts.js';
import type { Balance } from '../ports/credits.js';
import { heldBalanceOf, PushedBalances } from './pushed-balances.js';

const account: Account = {
  id: 'key_0123456789ab',
  plan: 'starter',
  label: 'test',
  created_at: '2026-01-15T10:00:00.000Z',
  expires_at: null,
};

function balanceWith(remaining: number): Balance {
  const kind = { limit: 2_000, used: 2_000 - remaining, reserved: 0, remaining, resets_at: null };
  return {
    api_calls: kind,
    profiles: kind,
    bic_reveals: kind,
    exports: kind,
    bank_metadata: kind,
    statements: kind,
  };
}

function subject() {
  const fromLedger = balanceWith(1);
  const balances = new PushedBalances({ balance: async () => fromLedger });
  const note = (atMs: number, remaining: number) =>
    heldBalanceOf({ account_id: account.id, at: new Date(atMs), balance: balanceWith(remaining) });
  return { balances, note, fromLedger };
}

const T = Date.parse('2026-03-10T12:00:00.000Z');

test('a fresh note answers; one older than the snapshot bound, or of another month, asks the ledger', async () => {
  const { balances, note, fromLedger } = subject();
  balances.record([note(T, 500)]);
  assert.equal((await balances.balance(account, new Date(T + 10))).api_calls.remaining, 500);
  const late = new Date(T + limits.leases.balanceSnapshotMs + 1);
  assert.equal(await balances.balance(account, late), fromLedger);
  const endOfMonth = Date.parse('2026-03-31T23:59:59.900Z');
  balances.record([note(endOfMonth, 400)]);
  assert.equal(await balances.balance(account, new Date('2026-04-01T00:00:00.100Z')), fromLedger);
  assert.deepEqual([balances.served, balances.asked], [1, 2]);
});

test('after a charge, notes read before it are void and notes read after it answer again', async () => {
  const { balances, note, fromLedger } = subject();
  balances.record([note(T, 500)]);
  balances.charged(account.id, new Date(T + 5));
  assert.equal(await balances.balance(account, new Date(T + 6)), fromLedger);
  // A reply read before the charge that arrives after it (a spend that was on its way) is not recorded.
  balances.record([note(T + 4, 480)]);
  balances.record([note(T + 5, 470)]);
  assert.equal(await balances.balance(account, new Date(T + 7)), fromLedger);
  balances.record([note(T + 6, 460)]);
  assert.equal((await balances.balance(account, new Date(T + 8))).api_calls.remaining, 460);
});
