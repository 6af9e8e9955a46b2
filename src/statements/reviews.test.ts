// The review workflow with the in-memory store and a scripted analysis: timeouts and crashes fail the review
// and refund its credit, document failures keep it, a review deleted mid-analysis is not written back.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import type { Account } from '../accounts/account-store.js';
import type { KindBalance, Reservation } from '../accounts/meter.js';
import type { StatementTask, StatementTaskResult } from '../pool/task.js';
import { MemoryReviewStore } from './review-store-memory.js';
import { StatementReviews } from './reviews.js';
import { UploadFiles } from './upload-files.js';

const account: Account = {
  id: 'key-1',
  plan: 'pro',
  label: null,
  created_at: '2026-01-01T00:00:00.000Z',
  expires_at: null,
};
const pdf = Buffer.from('%PDF-1.7\nsynthetic\n%%EOF\n');

function harness(
  analyze: (task: StatementTask, signal: AbortSignal) => Promise<StatementTaskResult>,
) {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-reviews-'));
  const refunds: Reservation[] = [];
  const store = new MemoryReviewStore();
  const key = Buffer.alloc(32, 7);
  const files = new UploadFiles(join(dir, 'uploads'), key);
  const balance: KindBalance = { limit: 100, used: 1, reserved: 0, remaining: 99, resets_at: null };
  const reviews = new StatementReviews({
    store,
    files,
    key,
    keySource: 'configured',
    analyze,
    accounts: { accountById: (id) => (id === account.id ? account : null) },
    meter: {
      balance: () => ({ statements: balance }),
      refundCommitted: (charge) => void refunds.push(charge),
    },
    now: () => new Date('2026-03-01T00:00:00.000Z'),
    retentionSeconds: 3600,
    region: 'test',
    logger: pino({ level: 'silent' }),
    analysisMsMax: 200,
  });
  return {
    reviews,
    store,
    files,
    refunds,
    dispose: async () => {
      await reviews.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function finished(reviews: StatementReviews, id: string): Promise<Record<string, any>> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const view = await reviews.view(account.id, id);
    if (view.status !== 'pending_analysis') return view;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('review did not finish');
}

const accept = (reviews: StatementReviews) =>
  reviews.accept({
    keyId: account.id,
    paid: true,
    bytes: pdf,
    expectedBank: null,
    expectedBankSlug: null,
  });

test('an analysis past its time bound fails as analysis_timeout and is refunded', async () => {
  const h = harness(
    (_task, signal) =>
      new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted'))),
      ),
  );
  try {
    await h.reviews.start();
    const id = (await accept(h.reviews)).review_id as string;
    const view = await finished(h.reviews, id);
    assert.equal(view.status, 'analysis_failed');
    assert.equal(view.failure.reason, 'analysis_timeout');
    assert.equal(view.failure.refunded, true);
    assert.deepEqual(
      h.refunds.map((charge) => charge.debits),
      [{ statements: 1 }],
    );
  } finally {
    await h.dispose();
  }
});

test('a crash is analysis_error (refunded); a document failure keeps the credit', async () => {
  let calls = 0;
  const h = harness(async () => {
    calls += 1;
    if (calls === 1) throw new Error('worker died');
    return { ok: false, reason: 'unreadable_document', detail: 'not parseable' };
  });
  try {
    await h.reviews.start();
    const crashed = await finished(h.reviews, (await accept(h.reviews)).review_id as string);
    assert.equal(crashed.failure.reason, 'analysis_error');
    assert.equal(crashed.failure.refunded, true);
    const unreadable = await finished(h.reviews, (await accept(h.reviews)).review_id as string);
    assert.equal(unreadable.failure.reason, 'unreadable_document');
    assert.equal(unreadable.failure.refunded, false);
    assert.equal(h.refunds.length, 1);
  } finally {
    await h.dispose();
  }
});

test('a review deleted while it is analysed stays deleted; the worker reads the upload it was given', async () => {
  let release: (result: StatementTaskResult) => void = () => undefined;
  let seenPath = '';
  const h = harness((task) => {
    seenPath = task.uploadPath;
    return new Promise((resolve) => (release = resolve));
  });
  try {
    await h.reviews.start();
    const id = (await accept(h.reviews)).review_id as string;
    for (let attempt = 0; attempt < 100 && seenPath === ''; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(seenPath, h.files.pathOf(id));
    assert.deepEqual(h.files.read(id), pdf);
    await h.reviews.remove(account.id, id);
    release({ ok: true, report: {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await h.store.get(id), undefined);
    assert.deepEqual(h.files.list(), []);
    await assert.rejects(h.reviews.view(account.id, id), { code: 'not_found' });
  } finally {
    await h.dispose();
  }
});

test('another key sees nothing; ids are 128-bit hex', async () => {
  const h = harness(async () => ({ ok: true, report: {} }));
  try {
    await h.reviews.start();
    const id = (await accept(h.reviews)).review_id as string;
    assert.match(id, /^[0-9a-f]{32}$/);
    await assert.rejects(h.reviews.view('key-2', id), { code: 'not_found' });
    await assert.rejects(h.reviews.remove('key-2', id), { code: 'not_found' });
  } finally {
    await h.dispose();
  }
});
