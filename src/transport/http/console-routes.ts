import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { loadConsoleAssets, consolePrefix, type ConsoleAsset } from '../../console/assets.js';
import { consoleHeaders } from '../../console/headers.js';
import { AppError } from '../../errors.js';
import { claimAnswer, sendError, type Exchange } from './respond.js';

/** Wraps a route's synchronous part as server.ts does for every route (request id, framing, failures). */
export type Guard = (
  name: string,
  body: (exchange: Exchange, res: HttpResponse, req: HttpRequest) => void,
) => (res: HttpResponse, req: HttpRequest) => void;

/** The console's routes: `/console` (redirect) and `/console/*` (its files), GET and HEAD. */
export const consolePaths = ['/console', `${consolePrefix}*`] as const;

/** A validator list of If-None-Match (RFC 9110 §13.1.2, weak comparison) that names this file. */
function matches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch === '') return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

function writeAsset(
  exchange: Exchange,
  asset: ConsoleAsset,
  notModified: boolean,
  head: boolean,
): void {
  if (!claimAnswer(exchange)) return;
  const { res } = exchange;
  res.cork(() => {
    res.writeStatus(notModified ? '304 Not Modified' : '200 OK');
    if (!notModified) res.writeHeader('content-type', asset.contentType);
    res.writeHeader('x-request-id', exchange.requestId);
    res.writeHeader('etag', asset.etag);
    for (const name in consoleHeaders) res.writeHeader(name, consoleHeaders[name] as string);
    if (notModified) res.endWithoutBody();
    else if (head) res.endWithoutBody(asset.body.length);
    else res.end(asset.body);
  });
}

function redirect(exchange: Exchange): void {
  if (!claimAnswer(exchange)) return;
  exchange.res.cork(() => {
    exchange.res.writeStatus('308 Permanent Redirect');
    exchange.res.writeHeader('location', consolePrefix);
    exchange.res.writeHeader('x-request-id', exchange.requestId);
    for (const name in consoleHeaders)
      exchange.res.writeHeader(name, consoleHeaders[name] as string);
    exchange.res.end();
  });
}

/**
 * Serves the console from memory. The URL is looked up as it arrived (uWS hands it over undecoded and without
 * the query), so a path is either one of the files read at start or a 404: nothing is joined onto a directory.
 */
export function routeConsole(
  app: TemplatedApp,
  guard: Guard,
  assets: ReadonlyMap<string, ConsoleAsset> = loadConsoleAssets(),
): void {
  const toIndex = guard('console', (exchange) => redirect(exchange));
  app.get('/console', toIndex);
  app.head('/console', toIndex);
  const serve = (head: boolean) =>
    guard('console', (exchange, _res, req) => {
      const url = req.getUrl();
      const asset = assets.get(url);
      if (asset === undefined) {
        sendError(exchange, new AppError('not_found', `No console file ${url}`));
        return;
      }
      writeAsset(exchange, asset, matches(req.getHeader('if-none-match'), asset.etag), head);
    });
  app.get(`${consolePrefix}*`, serve(false));
  app.head(`${consolePrefix}*`, serve(true));
}
