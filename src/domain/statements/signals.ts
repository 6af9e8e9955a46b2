/**
 * Every signal the review can report, declared once: README's signal table is this list. A signal is
 * evidence, not a verdict (a bank may legitimately save a PDF incrementally; a regenerated forgery leaves no
 * trail), so each one carries what it saw and where.
 */
export type Severity = 'info' | 'low' | 'medium' | 'high';
/** positive: counts for the document; risk: about how the file was made or what it claims; inconsistency: the content contradicts itself. */
export type SignalKind = 'positive' | 'risk' | 'inconsistency';

export interface SignalDefinition {
  readonly kind: SignalKind;
  readonly severity: Severity;
  readonly meaning: string;
  /** What a reviewer should do about it (risk and inconsistency signals). */
  readonly recommendation?: string;
}

export const signalCatalogue = {
  // arithmetic
  BALANCES_RECONCILE: {
    kind: 'positive',
    severity: 'info',
    meaning: 'Opening balance plus every transaction equals the closing balance (to the cent).',
  },
  BALANCE_MISMATCH: {
    kind: 'inconsistency',
    severity: 'high',
    meaning: 'Opening balance plus the transactions does not equal the printed closing balance.',
    recommendation:
      'Recompute the balances by hand and ask the account holder for the original statement from the bank.',
  },
  RUNNING_BALANCES_CONSISTENT: {
    kind: 'positive',
    severity: 'info',
    meaning: 'Every row balance equals the previous balance plus the row amount.',
  },
  RUNNING_BALANCE_BREAK: {
    kind: 'inconsistency',
    severity: 'high',
    meaning:
      'A row balance is not the previous balance plus the row amount (an amount or balance was changed).',
    recommendation: "Compare the flagged rows with the bank's own record of the account.",
  },
  CARRIED_FORWARD_MISMATCH: {
    kind: 'inconsistency',
    severity: 'high',
    meaning:
      'A balance carried from one page to the next is not the opening balance plus the transactions above it.',
    recommendation: 'Compare the pages with each other; a page may have been replaced or edited.',
  },
  DUPLICATE_TRANSACTIONS: {
    kind: 'risk',
    severity: 'medium',
    meaning: 'The same date, description and amount appear more than once.',
    recommendation: 'Check whether the repeated rows are genuine repeated payments.',
  },
  ROUND_NUMBER_PATTERN: {
    kind: 'risk',
    severity: 'low',
    meaning: 'At least half of five or more amounts are whole hundreds.',
    recommendation: 'Look at the source of the round amounts (invented figures tend to be round).',
  },
  // dates and period
  DATES_WITHIN_PERIOD: {
    kind: 'positive',
    severity: 'info',
    meaning: 'Every transaction date lies inside the statement period.',
  },
  TRANSACTION_OUTSIDE_PERIOD: {
    kind: 'inconsistency',
    severity: 'medium',
    meaning: 'A transaction is dated outside the statement period.',
    recommendation: 'Ask for the statement that covers the flagged dates.',
  },
  TRANSACTIONS_OUT_OF_ORDER: {
    kind: 'inconsistency',
    severity: 'low',
    meaning: 'Transaction dates are neither ascending nor descending.',
    recommendation: 'Check whether rows were inserted or moved.',
  },
  PERIOD_REVERSED: {
    kind: 'inconsistency',
    severity: 'high',
    meaning: 'The statement period ends before it starts.',
    recommendation: 'Ask for the original statement.',
  },
  PERIOD_IMPLAUSIBLE_LENGTH: {
    kind: 'inconsistency',
    severity: 'low',
    meaning: 'The statement period is longer than 92 days.',
    recommendation: 'Confirm the period with the account holder.',
  },
  PERIOD_IN_FUTURE: {
    kind: 'inconsistency',
    severity: 'high',
    meaning: 'The statement period ends after the review date.',
    recommendation: 'A statement cannot cover days that have not happened: ask for the original.',
  },
  // identifiers
  IBAN_VALID: {
    kind: 'positive',
    severity: 'info',
    meaning: 'Every IBAN printed passes the format, mod-97 and national checks.',
  },
  IBAN_INVALID: {
    kind: 'risk',
    severity: 'high',
    meaning: 'A printed IBAN fails the format, mod-97 or national check.',
    recommendation:
      'Verify the account details with the bank; a mistyped or invented IBAN cannot receive payments.',
  },
  IBAN_MATCHES_REGISTRY: {
    kind: 'positive',
    severity: 'info',
    meaning:
      "The IBAN's bank code is in the registry and agrees with the printed bank name or BIC.",
  },
  IBAN_BANK_MISMATCH: {
    kind: 'risk',
    severity: 'high',
    meaning:
      "The printed bank name or BIC differs from the bank the registry gives for the IBAN's bank code.",
    recommendation:
      'Check which bank holds the account; a statement template reused for another bank shows this.',
  },
  BIC_COUNTRY_MISMATCH: {
    kind: 'risk',
    severity: 'medium',
    meaning: "The BIC's country (characters 5-6) differs from the IBAN's country.",
    recommendation: 'Confirm the BIC with the bank.',
  },
  EXPECTED_BANK_MATCH: {
    kind: 'positive',
    severity: 'info',
    meaning:
      'The bank named in the request (expected_bank / expected_bank_slug) matches the statement.',
  },
  EXPECTED_BANK_MISMATCH: {
    kind: 'risk',
    severity: 'high',
    meaning:
      'The bank named in the request matches neither the printed bank nor the registry bank of the IBAN.',
    recommendation: 'Ask why the statement comes from another bank than expected.',
  },
  ROUTING_NUMBER_VALID: {
    kind: 'positive',
    severity: 'info',
    meaning: 'The US routing number passes the ABA prefix and 3-7-1 checksum.',
  },
  ROUTING_NUMBER_INVALID: {
    kind: 'risk',
    severity: 'high',
    meaning: 'The US routing number fails the ABA prefix or checksum.',
    recommendation: 'Verify the routing number with the bank.',
  },
  // file structure and metadata
  NO_EDITOR_METADATA: {
    kind: 'positive',
    severity: 'info',
    meaning: 'Neither producer nor creator names a consumer editing or conversion tool.',
  },
  EDITING_TOOL_PRODUCER: {
    kind: 'risk',
    severity: 'high',
    meaning:
      "The PDF producer or creator names an editing or conversion tool rather than a bank's statement generator.",
    recommendation: 'Ask for the statement as downloaded from online banking.',
  },
  SINGLE_REVISION: {
    kind: 'positive',
    severity: 'info',
    meaning: 'The PDF was written once: no incremental updates, not modified after creation.',
  },
  INCREMENTAL_UPDATES: {
    kind: 'risk',
    severity: 'medium',
    meaning:
      'The PDF carries incremental updates (more than one end-of-file section): content was added or replaced after the first save.',
    recommendation: 'Compare the revisions; banks rarely update a statement after issuing it.',
  },
  MODIFIED_AFTER_CREATION: {
    kind: 'risk',
    severity: 'medium',
    meaning: 'The modification date is later than the creation date.',
    recommendation: 'Ask what changed after the statement was produced.',
  },
  MODIFIED_BEFORE_CREATION: {
    kind: 'risk',
    severity: 'medium',
    meaning: 'The modification date is earlier than the creation date (dates were set by hand).',
    recommendation: 'Treat the metadata as altered.',
  },
  METADATA_DATE_IN_FUTURE: {
    kind: 'risk',
    severity: 'medium',
    meaning: 'A creation or modification date lies after the review date.',
    recommendation: 'Treat the metadata as altered.',
  },
  EMBEDDED_JAVASCRIPT: {
    kind: 'risk',
    severity: 'high',
    meaning: 'The PDF contains JavaScript, which statements never need.',
    recommendation: 'Do not open the file in a viewer that runs scripts; ask for a clean copy.',
  },
  EMBEDDED_FILES: {
    kind: 'risk',
    severity: 'medium',
    meaning: 'The PDF carries embedded files.',
    recommendation: 'Inspect the attachments before trusting the document.',
  },
  FILE_TRUNCATED: {
    kind: 'risk',
    severity: 'high',
    meaning: 'The PDF does not end with an end-of-file marker: it was cut short or damaged.',
    recommendation: 'Ask for the complete file.',
  },
  PAGES_WITHOUT_TEXT_LAYER: {
    kind: 'risk',
    severity: 'low',
    meaning:
      'Some PDF pages have no text layer (scanned or flattened), so their content was not read.',
    recommendation: 'Review those pages by eye or upload them as images for OCR.',
  },
  CONSISTENT_AMOUNT_FONTS: {
    kind: 'positive',
    severity: 'info',
    meaning: 'Every amount is drawn in the same font.',
  },
  MIXED_FONTS_IN_AMOUNTS: {
    kind: 'risk',
    severity: 'medium',
    meaning:
      'Some amounts are drawn in another font than the rest (a typical trace of an edited figure).',
    recommendation: 'Look closely at the flagged amounts.',
  },
  // images
  LOW_OCR_CONFIDENCE: {
    kind: 'risk',
    severity: 'low',
    meaning:
      'OCR read the image with a mean confidence under 60, so extracted values may be wrong.',
    recommendation: 'Upload a sharper scan or the original PDF.',
  },
  IMAGE_EDITOR_SOFTWARE: {
    kind: 'risk',
    severity: 'medium',
    meaning: "The image's EXIF Software tag names an image editor.",
    recommendation: 'Ask for the statement as downloaded from online banking.',
  },
  // the document as a whole
  NOT_A_BANK_STATEMENT: {
    kind: 'risk',
    severity: 'high',
    meaning:
      'The document lacks what a statement shows (an account identifier together with balances or transactions).',
    recommendation: 'Upload the bank statement itself.',
  },
} as const satisfies Record<string, SignalDefinition>;

export type SignalCode = keyof typeof signalCatalogue;

export interface Evidence {
  readonly page: number | null;
  readonly text: string;
}

export interface Signal {
  readonly code: SignalCode;
  readonly severity: Severity;
  readonly message: string;
  readonly evidence: readonly Evidence[];
  /** How many times the check fired (evidence lists at most the signals-per-code bound). */
  readonly occurrences: number;
}

/** Points a finding costs the 0-100 score, per code (not per occurrence): one high finding alone is medium risk. */
export const severityWeight: Readonly<Record<Severity, number>> = {
  info: 0,
  low: 5,
  medium: 15,
  high: 35,
};
