import type { StatementTask, StatementTaskResult } from '../../pool/task.js';
import type { BankDirectory } from '../../registry/bank-directory.js';
import type { RoutingDirectory } from '../../registry/routing-directory.js';
import { extractDocument } from '../../statements/extract/index.js';
export { configureOcr } from '../../statements/extract/image.js';
import { AnalysisFailure } from '../../statements/failure.js';
import { decryptUpload } from '../../statements/upload-cipher.js';
import { buildReport } from './report.js';

/**
 * One analysis as a pool worker runs it: decrypt the upload, extract, check, report.
 * Document-caused failures come back as data; anything else throws (a bug: the review fails as analysis_error).
 */
export async function analyzeUpload(
  task: StatementTask,
  bank: BankDirectory,
  routing?: RoutingDirectory,
): Promise<StatementTaskResult> {
  let bytes: Buffer;
  try {
    bytes = decryptUpload(Buffer.from(task.key), task.reviewId, task.sealed);
  } catch {
    return {
      ok: false,
      reason: 'upload_lost',
      detail: 'the stored upload is missing or does not decrypt',
    };
  }
  try {
    const facts = await extractDocument(bytes, task.fileKind);
    const report = buildReport(facts, {
      now: new Date(task.now),
      bank,
      caller: { keyId: null, plan: null, paid: task.callerPaid },
      expectedBank: task.expectedBank,
      expectedBankSlug: task.expectedBankSlug,
      ...(routing === undefined ? {} : { routing }),
    });
    return { ok: true, report };
  } catch (thrown) {
    if (thrown instanceof AnalysisFailure)
      return { ok: false, reason: thrown.reason, detail: thrown.detail };
    throw thrown;
  } finally {
    bytes.fill(0); // the plain upload does not linger in this thread's heap longer than the analysis
  }
}
