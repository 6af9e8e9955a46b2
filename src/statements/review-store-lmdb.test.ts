import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { reviewRecord, reviewStoreContract } from '../../test/helpers/review-store-contract.js';
import { AccountStore } from '../accounts/account-store.js';
import { LmdbReviewStore } from './review-store-lmdb.js';

describe('LmdbReviewStore', () => {
  reviewStoreContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ibanqa-reviews-'));
    const accounts = AccountStore.open(dir);
    return {
      store: LmdbReviewStore.open(accounts),
      close: async () => {
        await accounts.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });

  it('records survive reopening the environment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ibanqa-reviews-'));
    try {
      const first = AccountStore.open(dir);
      await LmdbReviewStore.open(first).put(reviewRecord('kept'));
      await first.close();
      const second = AccountStore.open(dir);
      assert.equal((await LmdbReviewStore.open(second).get('kept'))?.review_id, 'kept');
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
