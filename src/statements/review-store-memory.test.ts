import { describe } from 'node:test';
import { reviewStoreContract } from '../../test/helpers/review-store-contract.js';
import { MemoryReviewStore } from './review-store-memory.js';

describe('MemoryReviewStore', () => {
  reviewStoreContract(async () => ({
    store: new MemoryReviewStore(),
    close: async () => undefined,
  }));
});
