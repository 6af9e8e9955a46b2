// The review workflow with the in-memory store, the in-memory state ports (the real Meter behind the credit port)
// and a scripted analysis: timeouts and crashes fail the review and refund its credit, document failures keep
// it, a review deleted mid-analysis is not written back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DocumentFacts } from '../../src/domain/statements/document.js';
import { buildReport } from '../../src/ops/statements/report.js';
import type { StatementTaskResult } from '../../src/pool/task.js';
import type { BankDirectory } from '../../src/registry/bank-directory.js';
import type { StatementReviews } from '../../src/statements/reviews.js';
import { decryptUpload } from '../../src/statements/upload-cipher.js';
import { statementReviewsOverMemory, type Analyze } from '../helpers/statement-reviews.js';

const NOW = new Date('2026-03-01T00:00:00.000Z');
const pdf = Buffer.from('%PDF-1.7\nsynthetic\n%%EOF\n');

function harness(analyze: Analyze) {
  const setup = statementReviewsOverMemory({
    analyze,
    now: NOW,
    keyCreatedAt: new Date('2026-01-01T00:00:00.000Z'),
    analysisMsMax: 200,
  });
  const { ports, keyId, reviews } = setup;
  /** Statement credits used in the review's period, as the meter counts them. */
  const used = async () => {
    const account = await ports.authenticator.accountById(keyId);
    assert.ok(account);
    return (await ports.meter.balance(account, NOW)).statements.used;
  };
  /** An upload as the service runs it: the statement credit is reserved and committed around accept. */
  const accept = async () => {
    const account = await ports.authenticator.accountById(keyId);
    assert.ok(account);
    const held = await ports.meter.reserve(account, { statements: 1 }, NOW);
    assert.ok(held.ok);
    const answer = await reviews.accept({
      keyId,
      paid: true,
      bytes: pdf,
      kind: 'pdf',
      expectedBank: null,
      expectedBankSlug: null,
    });
    await ports.meter.commit(held.reservation);
    return answer;
  };
  /** An upload accepted and analysed to its end: the review as its owner then sees it. */
  const reviewed = async () => finished(reviews, keyId, (await accept()).review_id as string);
  return { ...setup, reviewed, used, accept };
}

/** The review ended in analysis_failed for `reason`, its credit refunded or kept. */
function failedAs(view: Record<string, any>, reason: string, refunded: boolean): void {
  assert.equal(view.status, 'analysis_failed');
  assert.deepEqual(
    { reason: view.failure.reason, refunded: view.failure.refunded },
    { reason, refunded },
  );
}

async function finished(
  reviews: StatementReviews,
  keyId: string,
  id: string,
): Promise<Record<string, any>> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const view = await reviews.view(keyId, id);
    if (view.status !== 'pending_analysis') return view;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('review did not finish');
}

test('an analysis past its time bound fails as analysis_timeout and is refunded', async () => {
  const h = harness(
    (_task, signal) =>
      new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted'))),
      ),
  );
  try {
    await h.reviews.start();
    failedAs(await h.reviewed(), 'analysis_timeout', true);
    assert.equal(await h.used(), 0, 'the committed statement credit is back');
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
    failedAs(await h.reviewed(), 'analysis_error', true);
    assert.equal(await h.used(), 0);
    failedAs(await h.reviewed(), 'unreadable_document', false);
    assert.equal(await h.used(), 1, 'a document failure keeps its credit');
  } finally {
    await h.dispose();
  }
});

test('a review deleted while it is analysed stays deleted; the worker reads the upload it was given', async () => {
  let release: (result: StatementTaskResult) => void = () => undefined;
  let seenId = '';
  let seenSealed: Uint8Array = new Uint8Array();
  const h = harness((task) => {
    seenId = task.reviewId;
    seenSealed = task.sealed;
    return new Promise((resolve) => (release = resolve));
  });
  try {
    await h.reviews.start();
    const id = (await h.accept()).review_id as string;
    for (let attempt = 0; attempt < 100 && seenId === ''; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(seenId, id);
    assert.deepEqual(decryptUpload(h.key, id, seenSealed), pdf);
    assert.deepEqual(await h.files.readSealed(id), Buffer.from(seenSealed));
    await h.reviews.remove(h.keyId, id);
    release({ ok: true, report: {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await h.store.get(id), undefined);
    assert.deepEqual(await h.files.list(), []);
    await assert.rejects(h.reviews.view(h.keyId, id), { code: 'not_found' });
  } finally {
    await h.dispose();
  }
});

test('another key sees nothing; ids are 128-bit hex', async () => {
  const h = harness(async () => ({ ok: true, report: {} }));
  try {
    await h.reviews.start();
    const id = (await h.accept()).review_id as string;
    assert.match(id, /^[0-9a-f]{32}$/);
    await assert.rejects(h.reviews.view('key-2', id), { code: 'not_found' });
    await assert.rejects(h.reviews.remove('key-2', id), { code: 'not_found' });
  } finally {
    await h.dispose();
  }
});

/** A report as the statements op shapes it, from a one-line document and no registry. */
function shapedReport(): unknown {
  const text = 'IBAN NL91 ABNA 0417 1643 00';
  const facts: DocumentFacts = {
    kind: 'pdf',
    pages: 1,
    lines: [{ page: 1, text, spans: [{ text, font: 'f' }] }],
    pdf: null,
    image: null,
  };
  return buildReport(facts, {
    now: NOW,
    bank: {
      bankOf: () => undefined,
      accountCheckMethod: () => undefined,
    } as unknown as BankDirectory,
    caller: { keyId: null, plan: null, paid: true },
    expectedBank: null,
    expectedBankSlug: null,
  });
}

test('the worker report is checked where it crosses back: off its schema the review fails, refunded', async () => {
  const report = shapedReport();
  const answers: StatementTaskResult[] = [
    { ok: true, report },
    { ok: true, report: { ...(report as object), score: 'high' } },
    { ok: false, reason: 'not_a_reason', detail: 'from a confused worker' },
  ];
  const h = harness(async () => answers.shift() as StatementTaskResult);
  try {
    await h.reviews.start();
    const done = await h.reviewed();
    assert.equal(done.status, 'completed');
    assert.deepEqual(done.iban_checks, (report as { iban_checks: unknown }).iban_checks);
    assert.equal(await h.used(), 1);
    for (const answer of ['a report off its schema', 'an unknown failure reason']) {
      failedAs(await h.reviewed(), 'analysis_error', true);
      assert.equal(await h.used(), 1, `${answer}: refunded, only the completed review is charged`);
    }
  } finally {
    await h.dispose();
  }
});
