import type { HttpResponse } from 'uWebSockets.js';
import { AppError } from '../../errors.js';
import { errorBody } from '../wire-errors.js';
import { httpStatusOf } from './status.js';

/** Per-request state shared by the handler and its async continuation. */
export interface Exchange {
  readonly res: HttpResponse;
  readonly requestId: string;
  aborted: boolean;
  /** Set while a body is being read: settles the read when the client goes away, so nothing waits forever. */
  onAbort?: () => void;
  /** Close the connection after the answer (an upload refused mid-body is not read to its end). */
  closeConnection?: boolean;
}

export const jsonType = 'application/json';
export const csvType = 'text/csv; charset=utf-8';

/** One corked write: status, headers and body leave in a single syscall. */
export function send(
  exchange: Exchange,
  status: string,
  contentType: string,
  body: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (exchange.aborted) return;
  exchange.res.cork(() => {
    exchange.res.writeStatus(status);
    exchange.res.writeHeader('content-type', contentType);
    exchange.res.writeHeader('x-request-id', exchange.requestId);
    for (const name in headers) exchange.res.writeHeader(name, headers[name] as string);
    exchange.res.end(body, exchange.closeConnection === true);
  });
}

export function sendError(exchange: Exchange, error: AppError, headers: Readonly<Record<string, string>> = {}): void {
  send(exchange, httpStatusOf[error.code], jsonType, JSON.stringify(errorBody(error, exchange.requestId)), headers);
}
