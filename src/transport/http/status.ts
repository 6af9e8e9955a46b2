import type { ErrorCode } from '../../errors.js';

/** ErrorCode -> HTTP status line. Exhaustive: a new code does not compile until it is mapped here. */
export const httpStatusOf = {
  invalid_argument: '400 Bad Request',
  invalid_country: '400 Bad Request',
  unauthenticated: '401 Unauthorized',
  payment_required: '402 Payment Required',
  advanced_targeting_required: '402 Payment Required',
  bulk_dataset_requires_paid_access: '402 Payment Required',
  permission_denied: '403 Forbidden',
  generation_limit_reached: '403 Forbidden',
  not_found: '404 Not Found',
  target_no_match: '404 Not Found',
  method_not_allowed: '405 Method Not Allowed',
  conflict: '409 Conflict',
  payload_too_large: '413 Payload Too Large',
  unsupported_media_type: '415 Unsupported Media Type',
  credits_exhausted: '429 Too Many Requests',
  rate_limited: '429 Too Many Requests',
  internal: '500 Internal Server Error',
  overloaded: '503 Service Unavailable',
  unavailable: '503 Service Unavailable',
} as const satisfies Record<ErrorCode, string>;
