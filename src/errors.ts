/**
 * The closed set of error codes. Each transport maps every code in one exhaustive table
 * (transport/http/status.ts, transport/grpc/status.ts): a new code does not compile until mapped.
 * The wire `error` string of a few codes is fixed by the spec (see `wireError`).
 */
export const errorCodes = [
  'invalid_argument',
  'invalid_country',
  'unauthenticated',
  'payment_required',
  'advanced_targeting_required',
  'bulk_dataset_requires_paid_access',
  'permission_denied',
  'generation_limit_reached',
  'not_found',
  'target_no_match',
  'method_not_allowed',
  'payload_too_large',
  'request_timeout',
  'unsupported_media_type',
  'conflict',
  'credits_exhausted',
  'rate_limited',
  'overloaded',
  'unavailable',
  'internal',
  // statement upload (spec: 400 for a bad uploaded file, each case with its own code)
  'statement_file_missing',
  'statement_file_duplicate',
  'statement_file_empty',
  'statement_file_too_large',
  'statement_file_unsupported_type',
  'multipart_malformed',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** Extra fields some errors carry on the wire (advanced_targeting_required: required_plan, pricing_url). */
export type ErrorDetails = Readonly<Record<string, string | number | boolean>>;

export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Failures cross the worker boundary as this plain shape: Error subclasses lose class and fields when cloned. */
export interface ErrorData {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details: ErrorDetails;
}

export function toErrorData(error: AppError): ErrorData {
  return { code: error.code, message: error.message, details: error.details };
}

export function fromErrorData(data: ErrorData): AppError {
  return new AppError(data.code, data.message, data.details);
}

/** Anything thrown becomes an AppError; unknown throws are bugs whose text stays private. */
export function toAppError(thrown: unknown): AppError {
  return thrown instanceof AppError
    ? thrown
    : new AppError('internal', 'internal error', {}, { cause: thrown });
}
