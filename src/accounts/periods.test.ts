import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../errors.js';
import { assertActive, calendarMonthOf, expiresAtOf, isExpired, periodOf } from './periods.js';

test('calendar month is UTC and rolls over the year', () => {
  const dec = calendarMonthOf(new Date('2026-12-31T23:59:59.999Z'));
  assert.equal(dec.start.toISOString(), '2026-12-01T00:00:00.000Z');
  assert.equal(dec.resetsAt?.toISOString(), '2027-01-01T00:00:00.000Z');
  // 00:30 on 1 March in UTC+1 is still February in UTC.
  const feb = calendarMonthOf(new Date('2028-03-01T00:30:00+01:00'));
  assert.equal(feb.start.toISOString(), '2028-02-01T00:00:00.000Z');
  assert.equal(feb.resetsAt?.toISOString(), '2028-03-01T00:00:00.000Z');
});

test('free and pass periods start at activation and never reset', () => {
  for (const plan of ['free', 'pass24h'] as const) {
    const account = { plan, created_at: '2026-05-10T08:00:00.000Z' };
    const period = periodOf(account, new Date('2026-09-01T00:00:00Z'));
    assert.equal(period.start.toISOString(), account.created_at);
    assert.equal(period.resetsAt, null);
  }
  const monthly = periodOf(
    { plan: 'pro', created_at: '2026-05-10T08:00:00.000Z' },
    new Date('2026-09-15T00:00:00Z'),
  );
  assert.equal(monthly.start.toISOString(), '2026-09-01T00:00:00.000Z');
});

test('a pass expires exactly 24 hours after activation', () => {
  const pass = { plan: 'pass24h' as const, created_at: '2026-05-10T08:00:00.000Z' };
  assert.equal(expiresAtOf(pass)?.toISOString(), '2026-05-11T08:00:00.000Z');
  assert.ok(!isExpired(pass, new Date('2026-05-11T07:59:59.999Z')));
  assert.ok(isExpired(pass, new Date('2026-05-11T08:00:00.000Z')));
  assertActive(pass, new Date('2026-05-11T07:59:59.999Z'));
  assert.throws(
    () => assertActive(pass, new Date('2026-05-11T08:00:00.000Z')),
    (e: unknown) =>
      e instanceof AppError &&
      e.code === 'payment_required' &&
      e.message === '24h pass expired at 2026-05-11T08:00:00.000Z',
  );
  assert.equal(expiresAtOf({ plan: 'free', created_at: pass.created_at }), null);
  assert.ok(
    !isExpired(
      { plan: 'starter', created_at: '2000-01-01T00:00:00Z' },
      new Date('2030-01-01T00:00:00Z'),
    ),
  );
});
