import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AppError } from '../errors.js';
import { AccountStore } from './account-store.js';
import { IdempotencyStore, type Claim, type IdempotencyRequest } from './idempotency-store.js';
import { limits } from '../limits.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function openStores(dir?: string): {
  dir: string;
  accounts: AccountStore;
  store: IdempotencyStore;
} {
  const dataDir = dir ?? mkdtempSync(join(tmpdir(), 'ibanqa-idem-'));
  if (dir === undefined) dirs.push(dataDir);
  const accounts = AccountStore.open(dataDir);
  return { dir: dataDir, accounts, store: IdempotencyStore.open(accounts) };
}

const t0 = new Date('2026-03-01T12:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

function request(
  key: string,
  fingerprint = `fp-${key}`,
  expiresAt = at(limits.accounts.idempotencyTtlMs),
): IdempotencyRequest {
  return { key, fingerprint, expiresAt, label: `request_id ${key}` };
}

function leader(claim: Claim): Extract<Claim, { kind: 'leader' }> {
  assert.equal(claim.kind, 'leader');
  return claim as Extract<Claim, { kind: 'leader' }>;
}

function replay(claim: Claim): Promise<unknown> {
  assert.equal(claim.kind, 'replay');
  return (claim as Extract<Claim, { kind: 'replay' }>).result;
}

describe('IdempotencyStore', () => {
  it('first claim leads; while it runs, the same key and fingerprint await its result', async () => {
    const { accounts, store } = openStores();
    const first = leader(store.claim('key1', request('a'), t0));
    const followers = Array.from({ length: 100 }, () =>
      replay(store.claim('key1', request('a'), t0)),
    );
    assert.equal(store.inFlightCount, 1);
    void first.complete({ rows: [1, 2, 3] }, t0);
    for (const result of await Promise.all(followers))
      assert.deepEqual(result, { rows: [1, 2, 3] });
    await store.flush();
    assert.equal(store.inFlightCount, 0);
    assert.deepEqual(await replay(store.claim('key1', request('a'), at(1000))), {
      rows: [1, 2, 3],
    });
    await accounts.close();
  });

  it('keys are per API key: another key id with the same request key leads on its own', async () => {
    const { accounts, store } = openStores();
    void leader(store.claim('key1', request('shared'), t0)).complete('one', t0);
    void leader(store.claim('key2', request('shared'), t0)).complete('two', t0);
    await store.flush();
    assert.equal(await replay(store.claim('key1', request('shared'), t0)), 'one');
    assert.equal(await replay(store.claim('key2', request('shared'), t0)), 'two');
    await accounts.close();
  });

  it('the same key with another fingerprint is a conflict, in flight and once saved', async () => {
    const { accounts, store } = openStores();
    const first = leader(store.claim('key1', request('b', 'fp-1'), t0));
    const isConflict = (error: unknown) =>
      error instanceof AppError && error.code === 'conflict' && /request_id b/.test(error.message);
    assert.throws(() => store.claim('key1', request('b', 'fp-2'), t0), isConflict);
    void first.complete(42, t0);
    await store.flush();
    assert.throws(() => store.claim('key1', request('b', 'fp-2'), t0), isConflict);
    await accounts.close();
  });

  it('an abandoned claim rejects its followers and frees the key for a new leader', async () => {
    const { accounts, store } = openStores();
    const first = leader(store.claim('key1', request('c'), t0));
    const follower = replay(store.claim('key1', request('c'), t0));
    first.abandon(new AppError('conflict', 'stale'));
    await assert.rejects(follower, /stale/);
    assert.equal(store.inFlightCount, 0);
    void leader(store.claim('key1', request('c'), t0)).complete('second try', t0);
    await store.flush();
    assert.equal(await replay(store.claim('key1', request('c'), t0)), 'second try');
    await accounts.close();
  });

  it('a record expires at expires_at: replayed just before, never after; the key can then lead again', async () => {
    const { accounts, store } = openStores();
    const expiresAt = at(limits.accounts.idempotencyTtlMs);
    void leader(store.claim('key1', request('d', 'fp', expiresAt), t0)).complete('saved', t0);
    await store.flush();
    assert.equal(
      await replay(
        store.claim(
          'key1',
          request('d', 'fp', expiresAt),
          at(limits.accounts.idempotencyTtlMs - 1),
        ),
      ),
      'saved',
    );
    assert.equal(
      store.get('key1', 'd', at(limits.accounts.idempotencyTtlMs)),
      undefined,
      'expired at expires_at',
    );
    const later = at(limits.accounts.idempotencyTtlMs + 1);
    void leader(
      store.claim(
        'key1',
        request('d', 'other fingerprint', at(2 * limits.accounts.idempotencyTtlMs)),
        later,
      ),
    ).complete('new', later);
    await store.flush();
    assert.equal(store.get('key1', 'd', later)?.result, JSON.stringify('new'));
    await accounts.close();
  });

  it('the sweep removes expired records in expiry order, at most a batch at a time, and keeps live ones', async () => {
    const { accounts, store } = openStores();
    const total = limits.accounts.idempotencySweepBatch * 2 + 3;
    for (let i = 0; i < total; i++) {
      void leader(store.claim('key1', request(`old-${i}`, 'fp', at(1000 + i)), t0)).complete(i, t0);
    }
    void leader(
      store.claim('key1', request('live', 'fp', at(limits.accounts.idempotencyTtlMs)), t0),
    ).complete('live', t0);
    await store.flush();
    const now = at(limits.accounts.idempotencyTtlMs / 2);
    assert.equal(
      store.sweep(now, limits.accounts.idempotencySweepBatch),
      limits.accounts.idempotencySweepBatch,
    );
    await store.flush();
    assert.equal(store.sweep(now, 1_000), total - limits.accounts.idempotencySweepBatch);
    await store.flush();
    assert.equal(store.sweep(now, 1_000), 0);
    assert.equal(store.get('key1', 'live', now)?.result, JSON.stringify('live'));
    await accounts.close();
  });

  it('saved results survive closing and reopening the environment (a restart)', async () => {
    const first = openStores();
    void leader(first.store.claim('key1', request('e'), t0)).complete(
      { saved: true, n: [1, null] },
      t0,
    );
    await first.store.flush();
    await first.accounts.close();
    const reopened = openStores(first.dir);
    assert.deepEqual(await replay(reopened.store.claim('key1', request('e'), at(60_000))), {
      saved: true,
      n: [1, null],
    });
    await reopened.accounts.close();
  });
});
