import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { AssertionFailure } from '../assert.js';
import { AccountStore } from './account-store.js';
import { KeylessLimit, clientKeyOf } from './keyless-limit.js';
import { limits } from '../limits.js';

const DAY = new Date('2026-08-18T09:00:00.000Z');
const MIDNIGHT = '2026-08-19T00:00:00.000Z';

function setup(
  t: TestContext,
  dir?: string,
): { store: AccountStore; limit: KeylessLimit; dir: string } {
  const root = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ibanqa-keyless-'));
  if (dir === undefined) t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const store = AccountStore.open(root);
  t.after(() => store.close().catch(() => undefined));
  return { store, limit: KeylessLimit.open(store), dir: root };
}

test('100 IBANs per UTC day per IP, all or nothing', (t) => {
  const { limit } = setup(t);
  assert.equal(limits.keylessIbansPerDayMax, 100);
  for (let i = 1; i <= 9; i++)
    assert.deepEqual(limit.take('203.0.113.7', 10, DAY), {
      ok: true,
      remaining: 100 - 10 * i,
      resets_at: MIDNIGHT,
    });
  assert.deepEqual(limit.take('203.0.113.7', 3, DAY), {
    ok: true,
    remaining: 7,
    resets_at: MIDNIGHT,
  });
  assert.deepEqual(
    limit.take('203.0.113.7', 8, DAY),
    { ok: false, remaining: 7, resets_at: MIDNIGHT },
    'does not fit: nothing taken',
  );
  assert.deepEqual(limit.take('203.0.113.7', 7, DAY), {
    ok: true,
    remaining: 0,
    resets_at: MIDNIGHT,
  });
  assert.equal(limit.take('203.0.113.7', 1, DAY).ok, false);
  assert.deepEqual(
    limit.take('203.0.113.8', 10, DAY),
    { ok: true, remaining: 90, resets_at: MIDNIGHT },
    'other IPs are separate',
  );
});

test('the count starts again at 00:00 UTC', (t) => {
  const { limit } = setup(t);
  const lastMs = new Date('2026-08-18T23:59:59.999Z');
  assert.ok(limit.take('198.51.100.1', 100, DAY).ok);
  assert.deepEqual(limit.take('198.51.100.1', 1, lastMs), {
    ok: false,
    remaining: 0,
    resets_at: MIDNIGHT,
  });
  const next = limit.take('198.51.100.1', 10, new Date(MIDNIGHT));
  assert.deepEqual(next, { ok: true, remaining: 90, resets_at: '2026-08-20T00:00:00.000Z' });
});

test('counts survive a restart and earlier days are dropped from LMDB', async (t) => {
  const first = setup(t);
  assert.ok(first.limit.take('192.0.2.1', 60, DAY).ok);
  assert.ok(first.limit.take('192.0.2.2', 5, DAY).ok);
  await first.store.close();

  const second = setup(t, first.dir);
  assert.deepEqual(second.limit.take('192.0.2.1', 40, DAY), {
    ok: true,
    remaining: 0,
    resets_at: MIDNIGHT,
  });
  assert.equal(second.limit.take('192.0.2.1', 1, DAY).ok, false);
  const tomorrow = new Date('2026-08-19T12:00:00Z');
  assert.ok(second.limit.take('192.0.2.9', 1, tomorrow).ok);
  await second.limit.flush();
  const keys = [...second.store.subDatabase<number>('keyless').getKeys()];
  assert.deepEqual(keys, ['2026-08-19|192.0.2.9']);
});

test('refund gives back what a failed request took', (t) => {
  const { limit } = setup(t);
  assert.ok(limit.take('192.0.2.50', 95, DAY).ok);
  assert.ok(limit.take('192.0.2.50', 5, DAY).ok);
  limit.refund('192.0.2.50', 5, DAY);
  assert.deepEqual(limit.take('192.0.2.50', 5, DAY), {
    ok: true,
    remaining: 0,
    resets_at: MIDNIGHT,
  });
  assert.throws(() => limit.refund('192.0.2.51', 1, DAY), AssertionFailure, 'nothing was taken');
});

test('IPv6 clients are counted per /64; IPv4-mapped addresses count as IPv4', (t) => {
  assert.equal(clientKeyOf('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(clientKeyOf('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
  assert.equal(clientKeyOf('2001:db8::'), '2001:db8:0:0::/64');
  assert.equal(clientKeyOf('::ffff:198.51.100.4'), '198.51.100.4');
  assert.equal(clientKeyOf('0000:0000:0000:0000:0000:ffff:c633:6404'), '198.51.100.4');
  assert.equal(clientKeyOf('::1'), '0:0:0:0::/64');
  assert.throws(() => clientKeyOf('ipv4:1.2.3.4:5000'), AssertionFailure);

  const { limit } = setup(t);
  assert.ok(limit.take('2001:db8:1:2::a', 60, DAY).ok);
  assert.deepEqual(limit.take('2001:db8:1:2::b', 50, DAY), {
    ok: false,
    remaining: 40,
    resets_at: MIDNIGHT,
  });
  assert.ok(limit.take('2001:db8:1:3::a', 50, DAY).ok, 'another /64');
  assert.ok(limit.take('198.51.100.4', 60, DAY).ok);
  assert.equal(limit.take('::ffff:198.51.100.4', 50, DAY).remaining, 40);
});

test('tracked clients are bounded: when full, new clients are refused and known ones continue', (t) => {
  const { limit } = setup(t);
  const ipOf = (n: number): string => `10.${(n >> 16) & 0xff}.${(n >> 8) & 0xff}.${n & 0xff}`;
  for (let n = 0; n < limits.accounts.keylessClientsTrackedMax; n++)
    assert.ok(limit.take(ipOf(n), 1, DAY).ok);
  assert.deepEqual(limit.take(ipOf(limits.accounts.keylessClientsTrackedMax), 1, DAY), {
    ok: false,
    remaining: 0,
    resets_at: MIDNIGHT,
  });
  assert.deepEqual(limit.take(ipOf(0), 1, DAY), { ok: true, remaining: 98, resets_at: MIDNIGHT });
  assert.ok(
    limit.take(ipOf(limits.accounts.keylessClientsTrackedMax), 1, new Date(MIDNIGHT)).ok,
    'a new day frees the table',
  );
});
