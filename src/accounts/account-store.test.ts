import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { AppError } from '../errors.js';
import { AccountStore } from './account-store.js';
import { limits } from '../limits.js';
import { planIds } from '../domain/plans/plans.js';

const NOW = new Date('2026-08-18T10:00:00.000Z');

function tempDir(t: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ibanqa-accounts-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function openStore(t: TestContext, dir = tempDir(t)): { store: AccountStore; dir: string } {
  const store = AccountStore.open(dir);
  t.after(() => store.close().catch(() => undefined));
  return { store, dir };
}

test('a created key authenticates as its account; the raw key is returned once', (t) => {
  const { store } = openStore(t);
  const created = store.createKey('pro', NOW, 'qa team');
  assert.match(created.key, /^iq_[0-9a-hjkmnp-tv-z]{32}$/);
  const hash = createHash('sha256').update(created.key).digest('hex');
  assert.equal(created.id, `key_${hash.slice(0, 12)}`);
  assert.deepEqual(store.authenticate(created.key, NOW), {
    id: created.id,
    plan: 'pro',
    label: 'qa team',
    created_at: NOW.toISOString(),
    expires_at: null,
  });
  const rows = store.listKeys();
  assert.equal(rows.length, 1);
  assert.deepEqual(Object.keys(rows[0]!).sort(), [
    'created_at',
    'expires_at',
    'id',
    'label',
    'plan',
    'revoked_at',
  ]);
});

test('only the SHA-256 of a key reaches the disk', async (t) => {
  const { store, dir } = openStore(t);
  const created = store.createKey('starter', NOW);
  await store.close();
  const bytes = fs.readFileSync(path.join(dir, 'accounts', 'data.mdb'));
  assert.ok(!bytes.includes(Buffer.from(created.key.slice(3))), 'raw key body found on disk');
  assert.ok(
    bytes.includes(Buffer.from(createHash('sha256').update(created.key).digest('hex'))),
    'hash not found',
  );
});

test('malformed, unknown and near-miss keys do not authenticate', (t) => {
  const { store } = openStore(t);
  const created = store.createKey('free', NOW);
  const lastChar = created.key.at(-1) === '0' ? '1' : '0';
  for (const bad of [
    '',
    'iq_',
    created.key.toUpperCase(),
    `${created.key.slice(0, -1)}${lastChar}`,
    `${created.key} `,
  ]) {
    assert.equal(store.authenticate(bad, NOW), null, JSON.stringify(bad));
  }
  assert.notEqual(store.authenticate(created.key, NOW), null);
});

test('revoked keys stop authenticating at once, and stay revoked after reopening', async (t) => {
  const { store, dir } = openStore(t);
  const keep = store.createKey('business', NOW);
  const drop = store.createKey('business', NOW);
  assert.notEqual(store.authenticate(drop.key, NOW), null); // now cached
  assert.equal(store.revokeKey(drop.id), true);
  assert.equal(store.authenticate(drop.key, NOW), null);
  assert.equal(store.revokeKey(drop.id), false, 'second revocation');
  assert.equal(store.revokeKey('key_000000000000'), false, 'unknown id');
  await store.close();
  const { store: reopened } = openStore(t, dir);
  assert.equal(reopened.authenticate(drop.key, NOW), null);
  assert.equal(reopened.authenticate(keep.key, NOW)?.id, keep.id);
  const revokedAt = reopened.listKeys().find((k) => k.id === drop.id)?.revoked_at;
  assert.equal(typeof revokedAt, 'string');
});

test('an expired 24h pass authenticates as payment_required, not as unknown', (t) => {
  const { store } = openStore(t);
  const pass = store.createKey('pass24h', NOW);
  assert.equal(
    store.authenticate(pass.key, new Date(NOW.getTime() + 23 * 3600_000))?.expires_at,
    '2026-08-19T10:00:00.000Z',
  );
  assert.throws(
    () => store.authenticate(pass.key, new Date(NOW.getTime() + 24 * 3600_000)),
    (e: unknown) =>
      e instanceof AppError &&
      e.code === 'payment_required' &&
      /expired at 2026-08-19T10:00:00.000Z/.test(e.message),
  );
});

test('demo keys: one per plan on an empty store, none afterwards', async (t) => {
  const { store, dir } = openStore(t);
  const demo = store.ensureDemoKeys(NOW);
  assert.deepEqual(
    demo.map((k) => k.plan),
    [...planIds],
  );
  for (const k of demo) assert.equal(store.authenticate(k.key, NOW)?.plan, k.plan);
  assert.deepEqual(store.ensureDemoKeys(NOW), []);
  await store.close();
  const { store: reopened } = openStore(t, dir);
  assert.deepEqual(reopened.ensureDemoKeys(NOW), []);
  assert.equal(reopened.listKeys().length, planIds.length);
});

test('no demo keys on a store whose only key was revoked', (t) => {
  const { store } = openStore(t);
  const only = store.createKey('free', NOW);
  store.revokeKey(only.id);
  assert.deepEqual(store.ensureDemoKeys(NOW), []);
});

test('labels are bounded', (t) => {
  const { store } = openStore(t);
  assert.throws(
    () => store.createKey('free', NOW, ''),
    (e: unknown) => e instanceof AppError && e.code === 'invalid_argument',
  );
  assert.throws(() => store.createKey('free', NOW, 'x'.repeat(121)), AppError);
  assert.equal(store.createKey('free', NOW, 'x'.repeat(120)).label?.length, 120);
});

test('a key revoked by another process (the CLI) stops working once the cache entry is older than its TTL', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ibanqa-revoke-'));
  const server = AccountStore.open(dir);
  const created = server.createKey('pro', new Date('2026-03-01T00:00:00Z'));
  const t0 = new Date('2026-03-01T00:00:01Z');
  assert.ok(server.authenticate(created.key, t0));
  const cli = AccountStore.open(dir);
  assert.equal(cli.revokeKey(created.id, t0), true);
  await cli.close();
  // lmdb-js renews its read transaction on the next event-loop turn, as a new request would be.
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(
    server.authenticate(created.key, new Date(t0.getTime() + limits.caches.staleMsMax - 1)),
    'still cached inside the TTL',
  );
  assert.equal(
    server.authenticate(created.key, new Date(t0.getTime() + limits.caches.staleMsMax + 1)),
    null,
  );
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
