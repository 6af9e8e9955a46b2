import type { AppError, ErrorCode } from '../errors.js';

/**
 * The `error` string each code carries on the wire (REST body, gRPC `error` trailer). Most are the
 * code itself; the spec fixes a few human strings ("Invalid country", "Invalid API key",
 * "API call limit reached"), and those are kept exactly so clients written against the spec match.
 */
const wireErrorOf = {
  invalid_argument: 'invalid_argument',
  invalid_country: 'Invalid country',
  unauthenticated: 'Invalid API key',
  payment_required: 'payment_required',
  advanced_targeting_required: 'advanced_targeting_required',
  bulk_dataset_requires_paid_access: 'bulk_dataset_requires_paid_access',
  permission_denied: 'permission_denied',
  generation_limit_reached: 'generation_limit_reached',
  not_found: 'not_found',
  target_no_match: 'target_no_match',
  method_not_allowed: 'method_not_allowed',
  payload_too_large: 'payload_too_large',
  request_timeout: 'request_timeout',
  unsupported_media_type: 'unsupported_media_type',
  conflict: 'conflict',
  credits_exhausted: 'API call limit reached',
  rate_limited: 'rate_limited',
  overloaded: 'overloaded',
  unavailable: 'unavailable',
  internal: 'internal',
  statement_file_missing: 'statement_file_missing',
  statement_file_duplicate: 'statement_file_duplicate',
  statement_file_empty: 'statement_file_empty',
  statement_file_too_large: 'statement_file_too_large',
  statement_file_unsupported_type: 'statement_file_unsupported_type',
  multipart_malformed: 'multipart_malformed',
} as const satisfies Record<ErrorCode, string>;

/** Credit kinds other than API calls name themselves ("Export limit reached"), per spec §Errors 429. */
const creditLimitWords: Readonly<Record<string, string>> = {
  api_calls: 'API call limit reached',
  profiles: 'Profile limit reached',
  bic_reveals: 'BIC reveal limit reached',
  exports: 'Export limit reached',
  bank_metadata: 'Bank metadata limit reached',
  statements: 'Statement quota reached',
};

export function wireErrorString(error: AppError): string {
  if (error.code === 'credits_exhausted') {
    const kind = error.details.credit_kind;
    return (
      (typeof kind === 'string' ? creditLimitWords[kind] : undefined) ??
      wireErrorOf.credits_exhausted
    );
  }
  return wireErrorOf[error.code];
}

/** The Error object: error, message, request_id, plus the code's documented extra fields. */
export function errorBody(error: AppError, requestId: string): Record<string, unknown> {
  return {
    error: wireErrorString(error),
    message: error.message,
    request_id: requestId,
    ...error.details,
  };
}

/** The `error` string of a code (credits_exhausted: its API-call form), for the contract's descriptions. */
export function wireNameOf(code: ErrorCode): string {
  return wireErrorOf[code];
}

/** Every `error` string a code can carry (credits_exhausted: one per credit kind), for the contract. */
export function wireNamesOf(code: ErrorCode): string[] {
  return code === 'credits_exhausted'
    ? [...new Set([wireErrorOf.credits_exhausted, ...Object.values(creditLimitWords)])]
    : [wireErrorOf[code]];
}

/** The code behind an `error` string (what a gRPC trailer carries); undefined for a string no code has. */
export function errorCodeOfWire(text: string): ErrorCode | undefined {
  const codes = Object.keys(wireErrorOf) as ErrorCode[];
  return codes.find((code) => wireNamesOf(code).includes(text));
}
