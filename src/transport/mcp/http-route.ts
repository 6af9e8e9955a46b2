import { STATUS_CODES } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import type { Logger } from 'pino';
import { limits } from '../../limits.js';
import type { CallIdentity } from '../../service/execute.js';
import { readBody } from '../http/body.js';
import type { HttpMetrics } from '../http/metrics.js';
import { sendError, writeCommonHeaders, type Exchange } from '../http/respond.js';
import type { HttpCalls } from '../http/calls.js';
import { answeredError } from '../logged-error.js';
import { mcpRoute } from '../service-routes.js';
import { createMcpServer, type McpCatalog } from './server.js';

export interface McpRouteDeps {
  readonly catalog: McpCatalog;
  readonly calls: HttpCalls;
  readonly logger: Logger;
  readonly metrics: HttpMetrics;
  /** The caller as a REST call sees it: the X-API-Key header, the client address. Read synchronously. */
  readonly identityOf: (res: HttpResponse, req: HttpRequest) => CallIdentity;
}

/** The REST front's wrapper for a route (request id, abort, framing check, a thrown bug answered). */
export type Guard = (
  name: string,
  body: (exchange: Exchange, res: HttpResponse, req: HttpRequest) => void,
) => (res: HttpResponse, req: HttpRequest) => void;

/** What the handler reads from `req` before it returns (uWS invalidates it after that). */
interface McpHead {
  readonly identity: CallIdentity;
  readonly url: string;
  readonly headers: Headers;
  readonly contentLength: number | null;
}

function readHead(deps: McpRouteDeps, res: HttpResponse, req: HttpRequest): McpHead {
  const headers = new Headers();
  req.forEach((name, value) => headers.append(name, value));
  const length = req.getHeader('content-length');
  return {
    identity: deps.identityOf(res, req),
    url: `http://${req.getHeader('host') || 'localhost'}${req.getUrl()}`,
    headers,
    contentLength: length === '' ? null : Number(length),
  };
}

/** '200 OK': the status as uWS writes it, and the outcome /metrics counts (as REST's). */
function statusLine(status: number): string {
  return `${status} ${STATUS_CODES[status] ?? ''}`;
}

/**
 * SDK headers not passed on: the framing uWS writes itself (Content-Length, or chunked while streaming), and the
 * cache policy every REST answer already states (no-store, stricter than the SDK's no-cache).
 */
const ownHeaders = new Set(['content-length', 'transfer-encoding', 'connection', 'cache-control']);

/** Writes the SDK's web Response to uWS: the head at once, then each chunk of the event stream as it comes. */
async function writeResponse(exchange: Exchange, response: Response): Promise<void> {
  const reader = response.body?.getReader();
  if (exchange.aborted || exchange.sent === true) {
    await reader?.cancel();
    return;
  }
  exchange.sent = true;
  exchange.observe?.(String(response.status), null);
  exchange.onAbort = () => void reader?.cancel();
  const { res } = exchange;
  res.cork(() => {
    res.writeStatus(statusLine(response.status));
    writeCommonHeaders(exchange);
    response.headers.forEach((value, name) => {
      if (!ownHeaders.has(name)) res.writeHeader(name, value);
    });
    if (reader === undefined) res.end();
  });
  if (reader === undefined) return;
  for (;;) {
    const { done, value } = await reader.read();
    if (exchange.aborted) return;
    if (done) break;
    res.cork(() => res.write(value));
  }
  res.cork(() => res.end());
}

/**
 * One POST: its own MCP server and stateless transport (no session survives the request, so any front thread
 * can answer the next one), the caller's identity fixed from this request's headers.
 */
async function serve(deps: McpRouteDeps, exchange: Exchange, head: McpHead): Promise<string> {
  const body = await readBody(exchange, head.contentLength, limits.mcpBodyBytesMax);
  const server = createMcpServer(
    deps.catalog,
    deps.calls,
    head.identity,
    deps.logger,
    deps.metrics,
  );
  const transport = new WebStandardStreamableHTTPServerTransport({
    maxRequestBodySize: limits.mcpBodyBytesMax,
    keepAliveMs: limits.mcpKeepAliveMs,
  });
  await server.connect(transport);
  try {
    // readBody's Buffer owns its bytes (copied from uWS), so a view of them is the body as it arrived.
    const bytes = new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
    const request = new Request(head.url, { method: 'POST', headers: head.headers, body: bytes });
    const response = await transport.handleRequest(request);
    await writeResponse(exchange, response);
    return statusLine(response.status);
  } finally {
    await server.close();
  }
}

/** POST /mcp on the REST app; other methods get the router's 405 (no session stream in stateless mode). */
export function routeMcp(app: TemplatedApp, deps: McpRouteDeps, guard: Guard): void {
  app.post(
    mcpRoute.path,
    guard(mcpRoute.id, (exchange, res, req) => {
      const head = readHead(deps, res, req);
      serve(deps, exchange, head)
        .catch((thrown: unknown) => {
          const error = answeredError(thrown, deps.logger, {
            requestId: exchange.requestId,
            op: mcpRoute.id,
          });
          if (exchange.sent === true && !exchange.aborted)
            exchange.res.cork(() => exchange.res.end());
          else sendError(exchange, error);
          return error.code;
        })
        .then((outcome) => deps.metrics.observe(mcpRoute.id, outcome, 'rest', exchange.startedMs))
        .catch((thrown: unknown) =>
          deps.logger.error(
            { err: thrown, requestId: exchange.requestId },
            'failure after the response',
          ),
        );
    }),
  );
}
