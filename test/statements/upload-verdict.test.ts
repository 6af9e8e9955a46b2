// The statements op checks an upload once: the gate's verdict (the file and its type) is what the run hands the
// review workflow. Method: gate a PDF, then put PNG bytes in the same request's file part; the accepted review
// still says application/pdf, which it could not if the run looked at the bytes again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statementAnalyze } from '../../src/ops/statements/analyze.js';
import { statementReviewsOverMemory } from '../helpers/statement-reviews.js';

const NOW = new Date('2026-03-01T00:00:00.000Z');
// The PNG signature (ISO/IEC 15948, 5.2): 89 50 4E 47 0D 0A 1A 0A.
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const pdf = Buffer.from('%PDF-1.7\nsynthetic\n%%EOF\n');

test('the run uses the verdict of the gate: the upload is not sniffed again', async (t) => {
  const { keyId, reviews, dispose } = statementReviewsOverMemory({
    now: NOW,
    keyByte: 3,
    // Only acceptance is under test: the analysis ends at once as a document failure.
    analyze: async () => ({
      ok: false,
      reason: 'unreadable_document',
      detail: 'not analysed here',
    }),
  });
  t.after(dispose);
  const caller = { keyId, plan: 'pro' as const, paid: true };
  const part = { field: 'statement_file', filename: 'a.pdf', bytes: pdf };
  const input = { files: [part] };
  statementAnalyze.gate?.(input, caller);
  part.bytes = png;
  const answer = await statementAnalyze.run(input, {
    caller,
    rowStart: 0,
    now: () => NOW,
    statements: reviews,
  });
  assert.equal(answer.media_type, 'application/pdf');
  assert.equal(answer.size_bytes, png.byteLength, "the bytes stored are the request part's");
  const fresh = { files: [{ field: 'statement_file', filename: 'b.png', bytes: png }] };
  statementAnalyze.gate?.(fresh, caller);
  const second = await statementAnalyze.run(fresh, {
    caller,
    rowStart: 0,
    now: () => NOW,
    statements: reviews,
  });
  assert.equal(second.media_type, 'image/png', 'another request is checked on its own');
});
