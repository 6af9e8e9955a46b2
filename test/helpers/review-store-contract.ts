import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ReviewRecord, ReviewStore } from '../../src/statements/review-store.js';

export function reviewRecord(id: string, overrides: Partial<ReviewRecord> = {}): ReviewRecord {
  return {
    review_id: id,
    key_id: 'key-a',
    status: 'pending_analysis',
    step: 'queued',
    created_at: '2026-01-01T00:00:00.000Z',
    expires_at: '2026-01-02T00:00:00.000Z',
    media_type: 'application/pdf',
    size_bytes: 10,
    expected_bank: null,
    expected_bank_slug: null,
    caller_paid: true,
    charge: {
      account_id: 'key-a',
      period_start: '2026-01-01T00:00:00.000Z',
      debits: { statements: 1 },
    },
    report: null,
    failure: null,
    completed_at: null,
    ...overrides,
  };
}

/** One behaviour for every ReviewStore: the LMDB store and the in-memory twin both run these. */
export function reviewStoreContract(
  open: () => Promise<{ store: ReviewStore; close: () => Promise<void> }>,
): void {
  it('puts, gets, replaces and deletes a record', async () => {
    const { store, close } = await open();
    try {
      assert.equal(await store.get('a'), undefined);
      await store.put(reviewRecord('a'));
      assert.equal((await store.get('a'))?.status, 'pending_analysis');
      await store.put(reviewRecord('a', { status: 'completed', step: 'done' }));
      assert.equal((await store.get('a'))?.status, 'completed');
      assert.deepEqual(await store.ids(), ['a']);
      assert.equal(await store.delete('a'), true);
      assert.equal(await store.delete('a'), false);
      assert.equal(await store.get('a'), undefined);
      assert.deepEqual(await store.ids(), []);
    } finally {
      await close();
    }
  });

  it('lists expired records oldest first, bounded, and follows a changed expiry', async () => {
    const { store, close } = await open();
    try {
      await store.put(reviewRecord('late', { expires_at: '2026-01-03T00:00:00.000Z' }));
      await store.put(reviewRecord('early', { expires_at: '2026-01-01T12:00:00.000Z' }));
      await store.put(reviewRecord('exact', { expires_at: '2026-01-02T00:00:00.000Z' }));
      const now = new Date('2026-01-02T00:00:00.000Z');
      assert.deepEqual(
        (await store.expired(now, 10)).map((record) => record.review_id),
        ['early', 'exact'],
      );
      assert.deepEqual(
        (await store.expired(now, 1)).map((record) => record.review_id),
        ['early'],
      );
      await store.put(reviewRecord('early', { expires_at: '2026-01-05T00:00:00.000Z' }));
      assert.deepEqual(
        (await store.expired(now, 10)).map((record) => record.review_id),
        ['exact'],
      );
      await store.delete('exact');
      assert.deepEqual(await store.expired(now, 10), []);
    } finally {
      await close();
    }
  });

  it('lists pending records in creation order', async () => {
    const { store, close } = await open();
    try {
      await store.put(reviewRecord('second', { created_at: '2026-01-01T00:00:02.000Z' }));
      await store.put(reviewRecord('first', { created_at: '2026-01-01T00:00:01.000Z' }));
      await store.put(reviewRecord('finished', { status: 'completed', step: 'done' }));
      assert.deepEqual(
        (await store.pending()).map((record) => record.review_id),
        ['first', 'second'],
      );
    } finally {
      await close();
    }
  });
}
