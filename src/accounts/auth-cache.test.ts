// Goal: the key cache answers a held key with no lookup and no hash, and still honours every change within its
// bound: a revocation by another writer once the entry is staleMsMax old (not before: that is the bound), one it is
// told of at once, a changed plan at the next refresh, pass expiry on every request, new keys at once; refused keys
// are never held and the map never outgrows its capacity. Method: the in-memory key registry (the same issuing and
// hashing as LMDB) behind a counting wrapper, time passed explicitly; the expected accounts come from the registry.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../errors.js';
import { limits } from '../limits.js';
import type { Account, Authenticator } from '../ports/accounts.js';
import { AuthCache, storeLookup } from './auth-cache.js';
import { generateRawKey } from './keys.js';
import { memoryPorts } from './memory-ports.js';

const t0 = new Date('2026-03-01T10:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

/** The registry's authenticator, counting what reaches it. */
function counted(store: Authenticator) {
  const counts = { authenticate: 0, accountById: 0 };
  const authenticator: Authenticator = {
    authenticate: (rawKey, now) => {
      counts.authenticate++;
      return store.authenticate(rawKey, now);
    },
    accountById: (id) => {
      counts.accountById++;
      return store.accountById(id);
    },
  };
  return { counts, authenticator };
}

test('a held key costs no lookup until staleMsMax after the read; a revocation by another writer shows then, not later', async () => {
  const ports = memoryPorts();
  const created = ports.createKey('pro', t0);
  const { counts, authenticator } = counted(ports.authenticator);
  const cache = AuthCache.over(authenticator);
  assert.equal((await cache.authenticate(created.key, t0))?.id, created.id);
  const afterMiss = { ...counts };
  for (let i = 0; i < 100; i++) await cache.authenticate(created.key, at(i));
  assert.deepEqual(counts, afterMiss, 'hits reach no store');
  // Revoked in the store without telling the cache: another process's `ibanqa keys revoke`.
  ports.revokeKey(created.id, at(1));
  assert.equal(
    (await cache.authenticate(created.key, at(limits.caches.staleMsMax)))?.id,
    created.id,
    'within the bound the held entry answers',
  );
  assert.equal(await cache.authenticate(created.key, at(limits.caches.staleMsMax + 1)), null);
  assert.equal(cache.size, 0);
});

test('a forgotten key is refused on its next request, and the listeners hear its id', async () => {
  const ports = memoryPorts();
  const created = ports.createKey('starter', t0);
  const cache = AuthCache.over(ports.authenticator);
  const heard: string[] = [];
  cache.onChange((id) => heard.push(id));
  await cache.authenticate(created.key, t0);
  ports.revokeKey(created.id, t0);
  cache.forget(created.id);
  assert.deepEqual(heard, [created.id]);
  assert.equal(await cache.authenticate(created.key, at(1)), null);
});

test('a refresh that finds the plan changed holds the new account and announces the key', async () => {
  const ports = memoryPorts();
  const created = ports.createKey('starter', t0);
  const stored = (await ports.authenticator.accountById(created.id)) as Account;
  let plan: Account['plan'] = 'starter';
  const store: Authenticator = {
    authenticate: (rawKey, now) => ports.authenticator.authenticate(rawKey, now),
    accountById: async () => ({ ...stored, plan }),
  };
  const cache = AuthCache.over(store);
  const heard: string[] = [];
  cache.onChange((id) => heard.push(id));
  assert.equal((await cache.authenticate(created.key, t0))?.plan, 'starter');
  plan = 'business';
  assert.equal((await cache.authenticate(created.key, at(1)))?.plan, 'starter');
  assert.equal(
    (await cache.authenticate(created.key, at(limits.caches.staleMsMax + 1)))?.plan,
    'business',
  );
  assert.deepEqual(heard, [created.id]);
});

test('a first lookup reads the record by id: a store cache that still answers for a revoked key is not believed', async () => {
  const ports = memoryPorts();
  const created = ports.createKey('pro', t0);
  const before = await ports.authenticator.authenticate(created.key, t0);
  ports.revokeKey(created.id, t0);
  // A store whose own cache read the key before its revocation (up to staleMsMax ago).
  const stale: Authenticator = {
    authenticate: async () => before,
    accountById: (id) => ports.authenticator.accountById(id),
  };
  assert.equal(await storeLookup(stale)(created.key, at(1), undefined), null);
  assert.equal(await AuthCache.over(stale).authenticate(created.key, at(1)), null);
});

test('pass expiry is checked on every request against the held account, with no lookup', async () => {
  const ports = memoryPorts();
  const pass = ports.createKey('pass24h', t0);
  const { counts, authenticator } = counted(ports.authenticator);
  // A bound longer than the pass: only the per-request check can refuse it.
  const cache = AuthCache.over(authenticator, { ttlMs: 48 * 3_600_000 });
  await cache.authenticate(pass.key, t0);
  const afterMiss = { ...counts };
  const expiry = new Date(pass.expires_at as string).getTime() - t0.getTime();
  assert.equal((await cache.authenticate(pass.key, at(expiry - 1)))?.id, pass.id);
  await assert.rejects(
    cache.authenticate(pass.key, at(expiry)),
    (error: unknown) => error instanceof AppError && error.code === 'payment_required',
  );
  assert.deepEqual(counts, afterMiss);
});

test('refused keys are never held, a new key works on its first request, and the map stays within its capacity', async () => {
  const ports = memoryPorts();
  const cache = AuthCache.over(ports.authenticator, { capacity: 2 });
  for (let i = 0; i < 200; i++) assert.equal(await cache.authenticate(generateRawKey(), t0), null);
  assert.equal(await cache.authenticate('not a key', t0), null);
  assert.equal(cache.size, 0);
  const keys = ['free', 'starter', 'pro'].map((plan) =>
    ports.createKey(plan as Account['plan'], t0),
  );
  for (const key of keys) assert.equal((await cache.authenticate(key.key, t0))?.id, key.id);
  assert.equal(cache.size, 2);
});

test('concurrent first requests of a key share one lookup; a key forgotten during a lookup is not held', async () => {
  const ports = memoryPorts();
  const created = ports.createKey('pro', t0);
  const { counts, authenticator } = counted(ports.authenticator);
  const cache = AuthCache.over(authenticator);
  const answers = await Promise.all(
    Array.from({ length: 16 }, () => cache.authenticate(created.key, t0)),
  );
  assert.ok(answers.every((account) => account?.id === created.id));
  assert.deepEqual(counts, { authenticate: 1, accountById: 1 });

  const other = ports.createKey('pro', t0);
  const lookup = cache.authenticate(other.key, t0);
  cache.forget(other.id);
  assert.equal((await lookup)?.id, other.id, 'the request under way is answered');
  assert.equal(cache.size, 1, 'but its read is not held');
});
