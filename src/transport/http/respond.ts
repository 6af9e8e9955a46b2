import type { HttpResponse } from 'uWebSockets.js';
import type { AppError, ErrorCode } from '../../errors.js';
import { errorBody } from '../wire-errors.js';
import { httpStatusOf } from './status.js';
import { requestIdReplacedHeader, requestIdReplacedReason } from './request-id.js';

/** Per-request state shared by the handler and its async continuation. */
export interface Exchange {
  readonly res: HttpResponse;
  readonly requestId: string;
  /** performance.now() when the request's handler began: its duration in /metrics runs from here. */
  readonly startedMs: number;
  aborted: boolean;
  /** Set once the answer is written: a uWS response must not be touched after it ends. */
  sent?: boolean;
  /** The request's Origin when CORS allows it: echoed in Access-Control-Allow-Origin. */
  corsOrigin?: string;
  /** Set while a body is being read: settles the read when the client goes away, so nothing waits forever. */
  onAbort?: () => void;
  /** The client sent an X-Request-ID this answer does not carry (see requestIdReplacedHeader). */
  requestIdReplaced?: true;
  /** Close the connection after the answer (an upload refused mid-body is not read to its end). */
  closeConnection?: boolean;
  /** The code of the refusal being answered (set by sendError), for `observe`. */
  refusedWith?: ErrorCode;
  /** Told the status (three digits) of the answer once it is written; set when statuses are recorded. */
  observe?: (status: string, code: ErrorCode | null) => void;
}

export const jsonType = 'application/json';
export const csvType = 'text/csv; charset=utf-8';

/**
 * The fixed header names and values, encoded once: uWS takes bytes as they are, where a string is converted to
 * UTF-8 on every call.
 */
const fixed = {
  contentType: Buffer.from('content-type'),
  requestId: Buffer.from('x-request-id'),
  noSniffName: Buffer.from('x-content-type-options'),
  noSniff: Buffer.from('nosniff'),
  cacheControl: Buffer.from('cache-control'),
  noStore: Buffer.from('no-store'),
  json: Buffer.from(jsonType),
} as const;

/** Headers every REST answer carries (OWASP secure headers for APIs: no MIME sniffing, no caching of answers). */
export function writeCommonHeaders(exchange: Exchange): void {
  exchange.res.writeHeader(fixed.requestId, exchange.requestId);
  if (exchange.requestIdReplaced === true)
    exchange.res.writeHeader(requestIdReplacedHeader, requestIdReplacedReason);
  exchange.res.writeHeader(fixed.noSniffName, fixed.noSniff);
  exchange.res.writeHeader(fixed.cacheControl, fixed.noStore);
  if (exchange.corsOrigin !== undefined) {
    exchange.res.writeHeader('access-control-allow-origin', exchange.corsOrigin);
    exchange.res.writeHeader('access-control-expose-headers', exposedHeaders);
    exchange.res.writeHeader('vary', 'Origin');
  }
}

/** Status line and Content-Type; uWS writes `200 OK` itself when no status was written. */
function writeHead(exchange: Exchange, status: string, contentType: string): void {
  if (status !== '200 OK') exchange.res.writeStatus(status);
  exchange.res.writeHeader(fixed.contentType, contentType === jsonType ? fixed.json : contentType);
}

/** Response headers a browser client may read when CORS is on. */
export const exposedHeaders =
  'X-Request-ID, X-Request-ID-Replaced, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After';

/** Marks the answer as written; false when it already was or the client went away (uWS forbids touching it then). */
export function claimAnswer(exchange: Exchange): boolean {
  if (exchange.aborted || exchange.sent === true) return false;
  exchange.sent = true;
  return true;
}

/** One corked write: status, headers and body leave in a single syscall. `close` ends the connection after it. */
export function send(
  exchange: Exchange,
  status: string,
  contentType: string,
  body: string | Uint8Array,
  headers: Readonly<Record<string, string>> = {},
  close = false,
): void {
  if (!claimAnswer(exchange)) return;
  exchange.observe?.(status.slice(0, 3), exchange.refusedWith ?? null);
  exchange.res.cork(() => {
    writeHead(exchange, status, contentType);
    writeCommonHeaders(exchange);
    for (const name in headers) exchange.res.writeHeader(name, headers[name] as string);
    exchange.res.end(body, close || exchange.closeConnection === true);
  });
}

/** Headers only (HEAD): the length reported is the GET body's. */
export function sendHead(
  exchange: Exchange,
  status: string,
  contentType: string,
  bodyLength: number,
): void {
  if (!claimAnswer(exchange)) return;
  exchange.observe?.(status.slice(0, 3), null);
  exchange.res.cork(() => {
    writeHead(exchange, status, contentType);
    writeCommonHeaders(exchange);
    exchange.res.endWithoutBody(bodyLength);
  });
}

/**
 * Headers a 429 carries beyond the Error object, from the refusal's own numbers: the keyless refusal
 * (per-IP allowance) and the keyed one (the credit kind named in `credit_kind`, with its `limit`).
 * Retry-After only where the allowance renews; a Free or 24h Pass balance never does.
 */
export function errorHeaders(error: AppError, nowMs: number = Date.now()): Record<string, string> {
  if (error.code !== 'rate_limited' && error.code !== 'credits_exhausted') return {};
  const { limit, remaining, resets_at: resetsAt } = error.details;
  const headers: Record<string, string> = {};
  if (typeof limit === 'number') headers['x-ratelimit-limit'] = String(limit);
  if (typeof remaining === 'number') headers['x-ratelimit-remaining'] = String(remaining);
  if (typeof resetsAt === 'string') {
    headers['x-ratelimit-reset'] = resetsAt;
    headers['retry-after'] = String(Math.max(1, Math.ceil((Date.parse(resetsAt) - nowMs) / 1000)));
  }
  return headers;
}

export function sendError(
  exchange: Exchange,
  error: AppError,
  headers: Readonly<Record<string, string>> = {},
  close = false,
): void {
  const all = { ...errorHeaders(error), ...headers };
  exchange.refusedWith = error.code;
  send(
    exchange,
    httpStatusOf[error.code],
    jsonType,
    JSON.stringify(errorBody(error, exchange.requestId)),
    all,
    close,
  );
}
