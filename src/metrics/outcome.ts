/**
 * The outcome label of the request duration histogram: three classes, so the series per operation stay few
 * (the fine outcome, status text or error code, is on ibanqa_requests_total). Defined by HTTP status class, the
 * one classification both transports share.
 */
export const outcomeClasses = ['ok', 'client_error', 'server_error'] as const;
export type OutcomeClass = (typeof outcomeClasses)[number];

/** 1xx-3xx ok, 4xx client_error, 5xx (and anything unreadable) server_error. */
export function outcomeClassOfStatus(status: number): OutcomeClass {
  if (!(status >= 100 && status < 600)) return 'server_error';
  return status < 400 ? 'ok' : status < 500 ? 'client_error' : 'server_error';
}

/**
 * gRPC status name -> class: the HTTP mapping of each code in google.rpc.Code (googleapis, google/rpc/code.proto,
 * https://github.com/googleapis/googleapis/blob/master/google/rpc/code.proto: CANCELLED 499, DEADLINE_EXCEEDED 504,
 * UNKNOWN/INTERNAL/DATA_LOSS 500, UNAVAILABLE 503, ...), with one exception: this service answers UNIMPLEMENTED
 * for a method it does not have (method_not_allowed, REST 405), the caller's mistake, where code.proto maps 501.
 * Listed by name so a front thread, which never loads grpc-js, can share this module; a test checks every error
 * code's gRPC status lands in the class of its REST status.
 */
export const grpcOutcomeClasses: Readonly<Record<string, OutcomeClass>> = {
  OK: 'ok',
  CANCELLED: 'client_error',
  UNKNOWN: 'server_error',
  INVALID_ARGUMENT: 'client_error',
  DEADLINE_EXCEEDED: 'server_error',
  NOT_FOUND: 'client_error',
  ALREADY_EXISTS: 'client_error',
  PERMISSION_DENIED: 'client_error',
  RESOURCE_EXHAUSTED: 'client_error',
  FAILED_PRECONDITION: 'client_error',
  ABORTED: 'client_error',
  OUT_OF_RANGE: 'client_error',
  UNIMPLEMENTED: 'client_error',
  INTERNAL: 'server_error',
  UNAVAILABLE: 'server_error',
  DATA_LOSS: 'server_error',
  UNAUTHENTICATED: 'client_error',
};

export function grpcOutcomeClass(statusName: string): OutcomeClass {
  return grpcOutcomeClasses[statusName] ?? 'server_error';
}
