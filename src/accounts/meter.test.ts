import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { AssertionFailure } from '../assert.js';
import { AppError } from '../errors.js';
import { AccountStore, type Account } from './account-store.js';
import { ledgerDurabilities, type LedgerDurability } from './ledger-durability.js';
import { Meter, type Reservation } from './meter.js';
import { MemoryTable } from './table.js';
import { creditKinds, planOf, type CreditKind, type PlanId } from '../domain/plans/plans.js';

const NOW = new Date('2026-08-18T10:00:00.000Z');

function tempDir(t: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ibanqa-meter-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function setup(
  t: TestContext,
  dir = tempDir(t),
  durability: LedgerDurability = 'disk',
): { store: AccountStore; meter: Meter; dir: string } {
  const store = AccountStore.open(dir, durability);
  t.after(() => store.close().catch(() => undefined));
  return { store, meter: Meter.open(store), dir };
}

function account(store: AccountStore, plan: PlanId, createdAt = NOW): Account {
  const created = store.createKey(plan, createdAt);
  const { key: _raw, ...rest } = created;
  return rest;
}

function reserveOk(
  meter: Meter,
  who: Account,
  debits: Partial<Record<CreditKind, number>>,
  now = NOW,
): Reservation {
  const result = meter.reserve(who, debits, now);
  assert.ok(result.ok, `expected reservation to fit: ${JSON.stringify(result)}`);
  return result.reservation;
}

test('commit debits exactly the reserved amount of each kind', (t) => {
  const { store, meter } = setup(t);
  const pro = account(store, 'pro');
  void meter.commit(
    reserveOk(meter, pro, { api_calls: 7, bic_reveals: 7, bank_metadata: 7, exports: 1 }),
  );
  void meter.commit(reserveOk(meter, pro, { api_calls: 2, profiles: 2 }));
  const balance = meter.balance(pro, NOW);
  const expectedUsed = {
    api_calls: 9,
    profiles: 2,
    bic_reveals: 7,
    exports: 1,
    bank_metadata: 7,
    statements: 0,
  };
  for (const kind of creditKinds) {
    const limit = planOf('pro').allowances[kind];
    assert.ok(limit !== null);
    assert.deepEqual(
      balance[kind],
      {
        limit,
        used: expectedUsed[kind],
        reserved: 0,
        remaining: limit - expectedUsed[kind],
        resets_at: '2026-09-01T00:00:00.000Z',
      },
      kind,
    );
  }
});

test('a request that does not fit in one kind is refused and debits nothing', (t) => {
  const { store, meter } = setup(t);
  const starter = account(store, 'starter');
  void meter.commit(reserveOk(meter, starter, { exports: 45 }));
  const refused = meter.reserve(starter, { api_calls: 10, bic_reveals: 10, exports: 6 }, NOW);
  assert.deepEqual(refused, {
    ok: false,
    kind: 'exports',
    needed: 6,
    limit: 50,
    remaining: 5,
    resets_at: '2026-09-01T00:00:00.000Z',
  });
  const balance = meter.balance(starter, NOW);
  assert.equal(balance.api_calls.used + balance.api_calls.reserved, 0);
  assert.equal(balance.bic_reveals.used + balance.bic_reveals.reserved, 0);
  assert.equal(balance.exports.used, 45);
  assert.equal(meter.pendingReservations, 0);
  assert.ok(
    meter.reserve(starter, { api_calls: 10, exports: 5 }, NOW).ok,
    'exactly the remainder still fits',
  );
});

test('a kind with a zero allowance refuses any debit of it', (t) => {
  const { store, meter } = setup(t);
  const free = account(store, 'free');
  const refused = meter.reserve(free, { api_calls: 1, bic_reveals: 1 }, NOW);
  assert.deepEqual(refused, {
    ok: false,
    kind: 'bic_reveals',
    needed: 1,
    limit: 0,
    remaining: 0,
    resets_at: null,
  });
  assert.ok(meter.reserve(free, { api_calls: 1, bic_reveals: 0 }, NOW).ok);
});

test('refund returns every reserved credit', (t) => {
  const { store, meter } = setup(t);
  const free = account(store, 'free');
  const all = reserveOk(meter, free, { api_calls: 50, profiles: 5 });
  assert.equal(meter.reserve(free, { api_calls: 1 }, NOW).ok, false);
  assert.equal(meter.balance(free, NOW).api_calls.remaining, 0);
  meter.refund(all);
  assert.deepEqual(meter.balance(free, NOW).api_calls, {
    limit: 50,
    used: 0,
    reserved: 0,
    remaining: 50,
    resets_at: null,
  });
  void meter.commit(reserveOk(meter, free, { api_calls: 50 }));
  assert.equal(meter.balance(free, NOW).api_calls.used, 50);
});

test('settling a reservation twice is an assertion failure', (t) => {
  const { store, meter } = setup(t);
  const pro = account(store, 'pro');
  const committed = reserveOk(meter, pro, { api_calls: 1 });
  void meter.commit(committed);
  assert.throws(() => meter.commit(committed), AssertionFailure);
  assert.throws(() => meter.refund(committed), AssertionFailure);
  const refunded = reserveOk(meter, pro, { api_calls: 1 });
  meter.refund(refunded);
  assert.throws(() => meter.refund(refunded), AssertionFailure);
  assert.throws(
    () => meter.commit({ ...refunded }),
    AssertionFailure,
    'a look-alike is not a reservation',
  );
  assert.equal(meter.balance(pro, NOW).api_calls.used, 1);
});

test('bad debits are programmer errors', (t) => {
  const { store, meter } = setup(t);
  const pro = account(store, 'pro');
  for (const debits of [
    { api_calls: -1 },
    { api_calls: 1.5 },
    { api_calls: Number.NaN },
    { nonsense: 1 },
  ]) {
    assert.throws(
      () => meter.reserve(pro, debits as Partial<Record<CreditKind, number>>, NOW),
      AssertionFailure,
    );
  }
  assert.equal(meter.pendingReservations, 0);
});

test('commit may spend less than reserved and releases the rest, never more', (t) => {
  const { store, meter } = setup(t);
  const pro = account(store, 'pro');
  const search = reserveOk(meter, pro, { api_calls: 1000 });
  assert.throws(() => meter.commit(search, { api_calls: 1001 }), AssertionFailure);
  const again = reserveOk(meter, pro, { api_calls: 1000 });
  void meter.commit(again, { api_calls: 12 });
  assert.deepEqual(
    [meter.balance(pro, NOW).api_calls.used, meter.balance(pro, NOW).api_calls.remaining],
    [12, 10_000 - 12],
  );
});

test('committed usage survives close and reopen', async (t) => {
  const { store, meter, dir } = setup(t);
  const biz = account(store, 'business');
  void meter.commit(reserveOk(meter, biz, { api_calls: 321, profiles: 4 }));
  void meter.commit(reserveOk(meter, biz, { api_calls: 9 }));
  const pending = reserveOk(meter, biz, { api_calls: 1000 }); // never settled: not persisted
  assert.ok(pending);
  await meter.flush();
  await store.close();

  const reopened = setup(t, dir);
  const balance = reopened.meter.balance(biz, NOW);
  assert.equal(balance.api_calls.used, 330);
  assert.equal(balance.api_calls.reserved, 0);
  assert.equal(balance.profiles.used, 4);
  assert.equal(balance.exports.used, 0);
});

test('close alone commits pending usage writes', async (t) => {
  const { store, meter, dir } = setup(t);
  const pro = account(store, 'pro');
  void meter.commit(reserveOk(meter, pro, { exports: 17 }));
  await store.close();
  assert.equal(setup(t, dir).meter.balance(pro, NOW).exports.used, 17);
});

test('a commit resolves only once its counts are committed to LMDB; concurrent commits share the write turn', async (t) => {
  const { store, meter } = setup(t);
  const pro = account(store, 'pro');
  const usage = store.subDatabase<Partial<Record<CreditKind, number>>>('usage');
  const usageKey = `${pro.id}|2026-08-01T00:00:00.000Z`;
  const first = meter.commit(reserveOk(meter, pro, { api_calls: 1 }));
  await first;
  assert.equal(usage.get(usageKey)?.api_calls, 1, 'acknowledged means written: no flush, no timer');
  const many = Array.from({ length: 50 }, () =>
    meter.commit(reserveOk(meter, pro, { api_calls: 1 })),
  );
  await Promise.all(many);
  assert.equal(usage.get(usageKey)?.api_calls, 51);
});

for (const durability of ledgerDurabilities) {
  test(`${durability} durability: a commit resolves once committed; the ledger reopens under the other setting`, async (t) => {
    const { store, meter, dir } = setup(t, tempDir(t), durability);
    const pro = account(store, 'pro');
    const usage = store.subDatabase<Partial<Record<CreditKind, number>>>('usage');
    const usageKey = `${pro.id}|2026-08-01T00:00:00.000Z`;
    await Promise.all(
      Array.from({ length: 20 }, () => meter.commit(reserveOk(meter, pro, { api_calls: 2 }))),
    );
    assert.equal(usage.get(usageKey)?.api_calls, 40, 'acknowledged means committed');
    await store.close();
    const other = durability === 'disk' ? 'process' : 'disk';
    const reopened = setup(t, dir, other);
    assert.equal(reopened.meter.balance(pro, NOW).api_calls.used, 40);
    void reopened.meter.commit(reserveOk(reopened.meter, pro, { api_calls: 1 }));
    await reopened.store.close();
    assert.equal(setup(t, dir, durability).meter.balance(pro, NOW).api_calls.used, 41);
  });
}

/** A meter over a memory table that records the key of every write. */
function countingMeter() {
  const puts: string[] = [];
  const table = new MemoryTable<Partial<Record<CreditKind, number>>>();
  const meter = new Meter({
    get: (key: string) => table.get(key),
    getRange: table.getRange.bind(table),
    remove: table.remove.bind(table),
    put: (key: string, value: Partial<Record<CreditKind, number>>) => (
      puts.push(key),
      table.put(key, value)
    ),
  });
  return { meter, puts, table };
}

test('the commits of one turn share one write per account, and each resolves only once that write is done', async (t) => {
  const { store } = setup(t);
  const pro = account(store, 'pro');
  const { meter, puts, table } = countingMeter();
  let settled = 0;
  const many = Array.from({ length: 50 }, () =>
    meter.commit(reserveOk(meter, pro, { api_calls: 1 })).then(() => settled++),
  );
  assert.equal(puts.length, 0, 'nothing is written before the turn ends');
  assert.equal(settled, 0);
  await Promise.all(many);
  assert.equal(puts.length, 1);
  assert.equal(table.get(puts[0] as string)?.api_calls, 50);
  await meter.commit(reserveOk(meter, pro, { api_calls: 2 }));
  assert.deepEqual(
    [puts.length, table.get(puts[0] as string)?.api_calls],
    [2, 52],
    'a later turn writes again, with every count so far',
  );
});

test('commit latency: each spending commit is timed to its durable write; free commits and refunds are not', async (t) => {
  const { store } = setup(t);
  const pro = account(store, 'pro');
  const table = new MemoryTable<Partial<Record<CreditKind, number>>>();
  const writeMs = 30;
  const meter = new Meter({
    get: (key: string) => table.get(key),
    getRange: table.getRange.bind(table),
    remove: table.remove.bind(table),
    // A write that takes writeMs to become durable.
    put: (key: string, value: Partial<Record<CreditKind, number>>) =>
      new Promise<boolean>((resolve) => setTimeout(() => resolve(table.put(key, value)), writeMs)),
  });
  const seen: number[] = [];
  meter.observeCommits({ observe: (seconds) => seen.push(seconds) });
  const charge = reserveOk(meter, pro, { api_calls: 2 });
  await Promise.all([
    meter.commit(reserveOk(meter, pro, { api_calls: 1 })),
    meter.commit(reserveOk(meter, pro, { api_calls: 1 })),
    meter.commit(charge),
    meter.commit(reserveOk(meter, pro, {})),
  ]);
  assert.equal(seen.length, 3, 'three commits spent credits, in one shared write');
  for (const seconds of seen) assert.ok(seconds >= (writeMs - 1) / 1000, `${seconds} s`);
  await meter.refundCommitted(charge);
  assert.equal(seen.length, 3, 'giving back committed credits is not a commit');
  await meter.commit(reserveOk(meter, pro, { api_calls: 1 }));
  assert.equal(seen.length, 4);
});

test('a commit that spends nothing writes nothing and resolves at once; one that spends writes', async (t) => {
  const { store } = setup(t);
  const pro = account(store, 'pro');
  const { meter, puts, table } = countingMeter();
  await meter.commit(reserveOk(meter, pro, {}));
  await meter.commit(reserveOk(meter, pro, { api_calls: 3 }), { api_calls: 0 });
  await meter.flush();
  assert.equal(puts.length, 0, 'free commits are not written');
  assert.equal(meter.pendingReservations, 0, 'both reservations are settled');
  assert.equal(meter.balance(pro, NOW).api_calls.reserved, 0, 'the unused hold is released');
  await meter.commit(reserveOk(meter, pro, { api_calls: 3 }), { api_calls: 1 });
  assert.equal(puts.length, 1);
  assert.equal(table.get(puts[0] as string)?.api_calls, 1);
});

test('a 24h pass works until 24 hours after activation, then requests get payment_required', (t) => {
  const { store, meter } = setup(t);
  const pass = account(store, 'pass24h');
  const late = new Date(NOW.getTime() + 24 * 3600_000 - 1);
  void meter.commit(
    reserveOk(meter, pass, { api_calls: 60, bic_reveals: 40 }, new Date(NOW.getTime() + 3600_000)),
  );
  const refused = meter.reserve(pass, { bic_reveals: 1 }, late);
  assert.deepEqual(refused, {
    ok: false,
    kind: 'bic_reveals',
    needed: 1,
    limit: 40,
    remaining: 0,
    resets_at: null,
  });
  assert.equal(
    meter.balance(pass, late).api_calls.remaining,
    40,
    'the pass never resets inside its 24 hours',
  );
  const expiry = new Date(NOW.getTime() + 24 * 3600_000);
  assert.throws(
    () => meter.reserve(pass, { api_calls: 1 }, expiry),
    (e: unknown) =>
      e instanceof AppError &&
      e.code === 'payment_required' &&
      e.message === '24h pass expired at 2026-08-19T10:00:00.000Z',
  );
  const after = meter.balance(pass, expiry);
  assert.deepEqual([after.api_calls.used, after.api_calls.remaining], [60, 0]);
});

test('monthly plans start from zero on the first of the month (UTC); usage stays with its month', async (t) => {
  const { store, meter, dir } = setup(t);
  const pro = account(store, 'pro', new Date('2026-01-05T00:00:00Z'));
  const jan = new Date('2026-01-31T23:59:59.999Z');
  const feb = new Date('2026-02-01T00:00:00.000Z');
  void meter.commit(reserveOk(meter, pro, { exports: 500 }, jan));
  assert.deepEqual(meter.reserve(pro, { exports: 1 }, jan), {
    ok: false,
    kind: 'exports',
    needed: 1,
    limit: 500,
    remaining: 0,
    resets_at: '2026-02-01T00:00:00.000Z',
  });
  // A request stamped in January that settles after February has begun still counts in January.
  const straggler = reserveOk(meter, pro, { api_calls: 5 }, jan);
  void meter.commit(reserveOk(meter, pro, { exports: 3 }, feb));
  void meter.commit(straggler);
  assert.deepEqual(meter.balance(pro, feb).exports, {
    limit: 500,
    used: 3,
    reserved: 0,
    remaining: 497,
    resets_at: '2026-03-01T00:00:00.000Z',
  });
  assert.equal(meter.balance(pro, feb).api_calls.used, 0);
  assert.equal(meter.balance(pro, jan).api_calls.used, 5);
  await store.close();
  const reopened = setup(t, dir).meter;
  assert.deepEqual(
    [reopened.balance(pro, jan).exports.used, reopened.balance(pro, jan).api_calls.used],
    [500, 5],
  );
  assert.equal(reopened.balance(pro, feb).exports.used, 3);
  assert.equal(reopened.balance(pro, new Date('2026-03-01T00:00:00Z')).exports.used, 0);
});

test('free is a lifetime allowance: a new month does not reset it', (t) => {
  const { store, meter } = setup(t);
  const free = account(store, 'free');
  void meter.commit(reserveOk(meter, free, { api_calls: 50 }));
  const nextYear = new Date('2027-08-18T10:00:00Z');
  assert.deepEqual(meter.reserve(free, { api_calls: 1 }, nextYear), {
    ok: false,
    kind: 'api_calls',
    needed: 1,
    limit: 50,
    remaining: 0,
    resets_at: null,
  });
});

test('unlimited never refuses but counts usage per calendar month', (t) => {
  const { store, meter } = setup(t);
  const unlimited = account(store, 'unlimited');
  for (let i = 0; i < 5; i++)
    void meter.commit(reserveOk(meter, unlimited, { api_calls: 1_000_000, statements: 10_000 }));
  assert.deepEqual(meter.balance(unlimited, NOW).api_calls, {
    limit: null,
    used: 5_000_000,
    reserved: 0,
    remaining: null,
    resets_at: '2026-09-01T00:00:00.000Z',
  });
  assert.equal(meter.balance(unlimited, NOW).statements.used, 50_000);
  assert.equal(meter.balance(unlimited, new Date('2026-09-01T00:00:00Z')).api_calls.used, 0);
});

test('concurrent requests reserving before any commit never exceed the allowance', async (t) => {
  const { store, meter } = setup(t);
  const free = account(store, 'free');
  const sizes = Array.from({ length: 40 }, (_, i) => 1 + (i % 7)); // 160 credits requested against 50
  const outcomes = await Promise.all(
    sizes.map(async (size) => {
      const result = meter.reserve(free, { api_calls: size }, NOW);
      await nextTurn(); // every request is in flight before any settles
      if (result.ok) void meter.commit(result.reservation);
      return result.ok ? size : 0;
    }),
  );
  const granted = outcomes.reduce((a, b) => a + b, 0);
  assert.ok(granted <= 50, `granted ${granted}`);
  assert.equal(meter.balance(free, NOW).api_calls.used, granted);
  // First fit in arrival order: 1+...+7 = 28, then 1+...+6 = 21 (49), a 7 is refused, the next 1 makes 50.
  assert.equal(granted, 50);
});

test('model check: any interleaving of reserve, commit and refund matches a simple ledger', (t) => {
  const { store, meter } = setup(t);
  const kinds = ['api_calls', 'profiles'] as const;
  const op = fc.oneof(
    fc.record({ type: fc.constant('reserve' as const), api: fc.nat(12), profiles: fc.nat(3) }),
    fc.record({ type: fc.constantFrom('commit' as const, 'refund' as const), pick: fc.nat() }),
  );
  fc.assert(
    fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const who = account(store, 'free'); // a fresh account per run: 50 api calls, 5 profiles
      const open: { reservation: Reservation; api: number; profiles: number }[] = [];
      const ledger = { used: { api_calls: 0, profiles: 0 }, held: { api_calls: 0, profiles: 0 } };
      for (const step of ops) {
        if (step.type === 'reserve') {
          const fits =
            ledger.used.api_calls + ledger.held.api_calls + step.api <= 50 &&
            ledger.used.profiles + ledger.held.profiles + step.profiles <= 5;
          const result = meter.reserve(who, { api_calls: step.api, profiles: step.profiles }, NOW);
          assert.equal(result.ok, fits);
          if (result.ok) {
            open.push({ reservation: result.reservation, api: step.api, profiles: step.profiles });
            ledger.held.api_calls += step.api;
            ledger.held.profiles += step.profiles;
          }
        } else if (open.length > 0) {
          const [entry] = open.splice(step.pick % open.length, 1);
          assert.ok(entry);
          ledger.held.api_calls -= entry.api;
          ledger.held.profiles -= entry.profiles;
          if (step.type === 'commit') {
            void meter.commit(entry.reservation);
            ledger.used.api_calls += entry.api;
            ledger.used.profiles += entry.profiles;
          } else {
            meter.refund(entry.reservation);
          }
        }
        const balance = meter.balance(who, NOW);
        for (const kind of kinds) {
          assert.equal(balance[kind].used, ledger.used[kind]);
          assert.equal(balance[kind].reserved, ledger.held[kind]);
          assert.ok(balance[kind].used + balance[kind].reserved <= (kind === 'api_calls' ? 50 : 5));
        }
      }
      for (const entry of open) meter.refund(entry.reservation);
    }),
    { numRuns: 200 },
  );
});

test('model check: with the clock moving across a month boundary, each request lands in its own period', (t) => {
  const { store, meter } = setup(t);
  const instants = [
    '2026-01-31T23:59:59.999Z',
    '2026-02-01T00:00:00.000Z',
    '2026-02-14T12:00:00.000Z',
    '2026-01-15T08:00:00.000Z',
  ].map((instant) => new Date(instant));
  // Independent of the meter's period arithmetic: the month is the first 7 characters of the instant.
  const monthStartOf = (now: Date) => `${now.toISOString().slice(0, 7)}-01T00:00:00.000Z`;
  fc.assert(
    fc.property(
      fc.array(fc.record({ at: fc.nat(instants.length - 1), lifetime: fc.boolean() }), {
        maxLength: 40,
      }),
      (steps) => {
        const monthly = account(store, 'pro', new Date('2026-01-02T00:00:00Z'));
        const lifetime = account(store, 'free', new Date('2026-01-03T00:00:00Z'));
        const usedPerMonth = new Map<string, number>();
        let lifetimeUsed = 0;
        for (const step of steps) {
          const now = instants[step.at] as Date;
          const who = step.lifetime ? lifetime : monthly;
          const reservation = reserveOk(meter, who, { api_calls: 1 }, now);
          void meter.commit(reservation);
          if (step.lifetime) {
            assert.equal(reservation.period_start, lifetime.created_at);
            lifetimeUsed += 1;
          } else {
            assert.equal(reservation.period_start, monthStartOf(now));
            usedPerMonth.set(monthStartOf(now), (usedPerMonth.get(monthStartOf(now)) ?? 0) + 1);
          }
          for (const instant of instants) {
            assert.equal(
              meter.balance(monthly, instant).api_calls.used,
              usedPerMonth.get(monthStartOf(instant)) ?? 0,
            );
            assert.equal(meter.balance(lifetime, instant).api_calls.used, lifetimeUsed);
          }
        }
      },
    ),
    { numRuns: 100 },
  );
});
