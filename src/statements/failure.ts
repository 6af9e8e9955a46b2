/**
 * Why an analysis ended without a report. `refunded` reasons are the service's fault (the statement credit
 * goes back); the others are the document's (a corrupt or locked file was still reviewed and answered).
 */
export const failureReasons = {
  unreadable_document: {
    refunded: false,
    message: 'The file could not be read as a PDF or image (corrupt or truncated beyond repair)',
  },
  encrypted_document: {
    refunded: false,
    message: 'The PDF is password-protected; upload it without a password',
  },
  too_many_pages: { refunded: false, message: 'The PDF has more pages than a review reads' },
  image_too_large: {
    refunded: false,
    message:
      'The image has more pixels than a review decodes (a decompression bomb is refused unread)',
  },
  analysis_timeout: { refunded: true, message: 'The analysis ran past its time limit' },
  analysis_error: { refunded: true, message: 'The analysis failed inside the service' },
  upload_lost: {
    refunded: true,
    message: 'The stored upload could not be read back (lost or damaged at rest)',
  },
} as const;

export type FailureReason = keyof typeof failureReasons;

export function isFailureReason(reason: string): reason is FailureReason {
  return Object.hasOwn(failureReasons, reason);
}

/** Thrown by extraction for a document-caused failure; crosses the worker boundary as { reason, detail }. */
export class AnalysisFailure extends Error {
  override readonly name = 'AnalysisFailure';
  constructor(
    readonly reason: FailureReason,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}
