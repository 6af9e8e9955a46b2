import { status } from '@grpc/grpc-js';
import type { ErrorCode } from '../../errors.js';

/** ErrorCode -> gRPC status. Exhaustive: a new code does not compile until it is mapped here. */
export const grpcStatusOf = {
  invalid_argument: status.INVALID_ARGUMENT,
  invalid_country: status.INVALID_ARGUMENT,
  unauthenticated: status.UNAUTHENTICATED,
  payment_required: status.FAILED_PRECONDITION,
  advanced_targeting_required: status.FAILED_PRECONDITION,
  bulk_dataset_requires_paid_access: status.FAILED_PRECONDITION,
  permission_denied: status.PERMISSION_DENIED,
  generation_limit_reached: status.PERMISSION_DENIED,
  not_found: status.NOT_FOUND,
  target_no_match: status.NOT_FOUND,
  method_not_allowed: status.UNIMPLEMENTED,
  conflict: status.ALREADY_EXISTS,
  payload_too_large: status.RESOURCE_EXHAUSTED,
  // REST only (a body too slow to arrive): a gRPC call never meets it. CANCELLED (HTTP 499 in google.rpc.Code,
  // the client did not complete its request) keeps it on the client's side, as 408 is over REST.
  request_timeout: status.CANCELLED,
  unsupported_media_type: status.INVALID_ARGUMENT,
  credits_exhausted: status.RESOURCE_EXHAUSTED,
  rate_limited: status.RESOURCE_EXHAUSTED,
  overloaded: status.UNAVAILABLE,
  unavailable: status.UNAVAILABLE,
  internal: status.INTERNAL,
  statement_file_missing: status.INVALID_ARGUMENT,
  statement_file_duplicate: status.INVALID_ARGUMENT,
  statement_file_empty: status.INVALID_ARGUMENT,
  statement_file_too_large: status.INVALID_ARGUMENT,
  statement_file_unsupported_type: status.INVALID_ARGUMENT,
  multipart_malformed: status.INVALID_ARGUMENT,
} as const satisfies Record<ErrorCode, status>;
