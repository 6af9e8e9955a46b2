import assert from 'node:assert/strict';
import { test } from 'node:test';
import { creditKinds, isPlanAtLeast, isPlanId, planIds, planOf } from './plans.js';

test('plan allowances follow the spec table (API calls, profiles, BIC reveals, exports)', () => {
  const table = {
    free: [50, 5, 0, 0],
    pass24h: [100, 10, 40, 3],
    starter: [2_000, 200, 200, 50],
    pro: [10_000, 1_000, 2_000, 500],
    business: [100_000, 10_000, 10_000, 2_000],
    enterprise: [250_000, 25_000, 25_000, 5_000],
  } as const;
  for (const [id, [api, profiles, bic, exports]] of Object.entries(table)) {
    assert.ok(isPlanId(id));
    const a = planOf(id).allowances;
    assert.deepEqual(
      [a.api_calls, a.profiles, a.bic_reveals, a.exports],
      [api, profiles, bic, exports],
      id,
    );
    assert.equal(a.bank_metadata, a.bic_reveals, `${id}: bank metadata follows BIC reveals`);
  }
});

test('statement allowances and bulk row caps are the decided values', () => {
  const statements = planIds.map((id) => planOf(id).allowances.statements);
  assert.deepEqual(statements, [1, 3, 20, 100, 500, 2_000, null]);
  const bulk = planIds.map((id) => planOf(id).bulkRowCap);
  assert.deepEqual(bulk, [null, 40, 500, 10_000, 10_000, 10_000, 10_000]);
});

test('periods: free lifetime, pass from activation, the rest calendar months', () => {
  assert.deepEqual(
    planIds.map((id) => planOf(id).period),
    [
      'lifetime',
      'pass',
      'calendar_month',
      'calendar_month',
      'calendar_month',
      'calendar_month',
      'calendar_month',
    ],
  );
});

test('unlimited has no cap on any kind', () => {
  for (const kind of creditKinds) assert.equal(planOf('unlimited').allowances[kind], null);
});

test('plan rank and paid flag', () => {
  assert.ok(isPlanAtLeast('pro', 'starter'));
  assert.ok(isPlanAtLeast('pro', 'pro'));
  assert.ok(!isPlanAtLeast('starter', 'pro'));
  assert.ok(isPlanAtLeast('unlimited', 'enterprise'));
  assert.ok(!isPlanAtLeast('free', 'pass24h'));
  assert.ok(isPlanAtLeast('pass24h', 'free'));
  for (let i = 0; i + 1 < planIds.length; i++) {
    const [lower, higher] = [planIds[i]!, planIds[i + 1]!];
    assert.ok(
      isPlanAtLeast(higher, lower) && !isPlanAtLeast(lower, higher),
      `${lower} < ${higher}`,
    );
  }
  assert.deepEqual(
    planIds.filter((id) => planOf(id).paid),
    planIds.filter((id) => id !== 'free'),
  );
  assert.ok(!isPlanId('basic'));
});
