import uWS from 'uWebSockets.js';
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import type { Logger } from 'pino';
import { AppError, toAppError } from '../../errors.js';
import { limits } from '../../limits.js';
import type { HttpOp } from '../../ops/framework/op.js';
import type { Service } from '../../service/execute.js';
import { readBody, parseJsonBody } from './body.js';
import { readMultipart } from './multipart.js';
import { requestIdFrom } from './request-id.js';
import { renderBody, RenderedBody } from '../../render/body.js';
import { csvType, jsonType, send, sendError, type Exchange } from './respond.js';
import type { HttpMetrics } from './metrics.js';

export const apiPrefix = '/api/v1';

export interface HttpFrontDeps {
  readonly service: Service;
  readonly ops: readonly HttpOp[];
  readonly openapi: () => unknown;
  readonly logger: Logger;
  readonly metrics: HttpMetrics;
  readonly isReady: () => boolean;
  readonly trustProxy: boolean;
}

export interface HttpFront {
  readonly port: number;
  close(): void;
}

/** The trufflesuite build silently falls back to a node:http shim when the native binary fails to load. */
export function assertNativeUws(): void {
  if (typeof (uWS as unknown as { getParts?: unknown }).getParts !== 'function') {
    throw new Error('uWebSockets.js native binary did not load (the node:http fallback is refused): check the Node version (20.x, ABI 115) and glibc >= 2.27');
  }
}

function clientIp(res: HttpResponse, req: HttpRequest, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.getHeader('x-forwarded-for').split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return Buffer.from(res.getRemoteAddressAsText()).toString();
}

function paramNamesOf(path: string): string[] {
  return path.split('/').filter((segment) => segment.startsWith(':')).map((segment) => segment.slice(1));
}

interface CallParts {
  readonly apiKey: string | undefined;
  readonly ip: string;
  readonly query: string;
  readonly params: Record<string, string>;
  readonly contentLength: number | null;
  readonly contentType: string;
}

/** Everything a handler needs from `req` must be read synchronously: uWS invalidates it after return. */
function readCallParts(op: HttpOp, res: HttpResponse, req: HttpRequest, trustProxy: boolean): CallParts {
  const apiKey = req.getHeader('x-api-key');
  const length = req.getHeader('content-length');
  const params: Record<string, string> = {};
  paramNamesOf(op.http.path).forEach((name, index) => {
    params[name] = decodeURIComponent(req.getParameter(index) ?? '');
  });
  return {
    apiKey: apiKey === '' ? undefined : apiKey,
    ip: clientIp(res, req, trustProxy),
    query: req.getQuery() ?? '',
    params,
    contentLength: length === '' ? null : Number(length),
    contentType: op.http.inputFrom === 'multipart' ? req.getHeader('content-type') : '',
  };
}

function queryInput(query: string, params: Record<string, string>): Record<string, string> {
  const input: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(query)) input[name] = value;
  return { ...input, ...params };
}

async function rawInputOf(op: HttpOp, exchange: Exchange, parts: CallParts): Promise<unknown> {
  if (op.http.inputFrom === 'query') return queryInput(parts.query, parts.params);
  if (op.http.inputFrom === 'multipart') {
    const { fields, files } = await readMultipart(exchange, parts.contentType, parts.contentLength);
    return { ...fields, files, ...parts.params };
  }
  const body = await readBody(exchange, parts.contentLength, limits.httpJsonBodyBytesMax);
  const parsed = parseJsonBody(body);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new AppError('invalid_argument', 'Request body must be a JSON object');
  }
  return Object.keys(parts.params).length === 0 ? parsed : { ...(parsed as object), ...parts.params };
}

async function handleOp(deps: HttpFrontDeps, op: HttpOp, exchange: Exchange, parts: CallParts): Promise<void> {
  let status = '200 OK';
  try {
    const raw = await rawInputOf(op, exchange, parts);
    const outcome = await deps.service.execute(op, raw, { apiKey: parts.apiKey, ip: parts.ip }, { serialized: true });
    const code = op.successStatusOf?.(outcome.output as never) ?? op.successStatus;
    status = code === undefined ? '200 OK' : `${code} ${code === 200 ? 'OK' : code === 201 ? 'Created' : 'Accepted'}`;
    const rendered = outcome.output instanceof RenderedBody ? outcome.output : await renderBody(op, outcome.output, outcome.format);
    send(exchange, status, rendered.format === 'csv' ? csvType : jsonType, rendered.body, outcome.headers);
  } catch (thrown) {
    const error = toAppError(thrown);
    status = error.code;
    if (error.code === 'internal') deps.logger.error({ err: error.cause ?? thrown, requestId: exchange.requestId, op: op.name }, 'internal error');
    sendError(exchange, error);
  } finally {
    deps.metrics.observe(op.name, status);
  }
}

function routeOp(app: TemplatedApp, deps: HttpFrontDeps, op: HttpOp): void {
  const handler = (res: HttpResponse, req: HttpRequest) => {
    const exchange: Exchange = { res, requestId: requestIdFrom(req.getHeader('x-request-id')), aborted: false };
    res.onAborted(() => {
      exchange.aborted = true;
      exchange.onAbort?.();
    });
    const parts = readCallParts(op, res, req, deps.trustProxy);
    void handleOp(deps, op, exchange, parts);
  };
  for (const pattern of patternsOf(op)) {
    if (op.http.method === 'GET') app.get(pattern, handler);
    else if (op.http.method === 'POST') app.post(pattern, handler);
    else app.del(pattern, handler);
  }
}

/** The op's route under /api/v1, and the same path without the prefix when the op declares that alias. */
export function patternsOf(op: HttpOp): string[] {
  const prefixed = [op.http.path, ...(op.http.aliasPaths ?? [])].map((path) => `${apiPrefix}${path}`);
  return op.http.unprefixedAlias === true ? [...prefixed, op.http.path] : prefixed;
}

function staticJson(app: TemplatedApp, path: string, body: () => { status: string; json: unknown }): void {
  app.get(path, (res, req) => {
    const exchange: Exchange = { res, requestId: requestIdFrom(req.getHeader('x-request-id')), aborted: false };
    const { status, json } = body();
    send(exchange, status, jsonType, JSON.stringify(json));
  });
}

function fallbacks(app: TemplatedApp, deps: HttpFrontDeps, routedPaths: ReadonlyMap<string, string[]>): void {
  for (const [pattern, methods] of routedPaths) {
    app.any(pattern, (res, req) => {
      const exchange: Exchange = { res, requestId: requestIdFrom(req.getHeader('x-request-id')), aborted: false };
      sendError(exchange, new AppError('method_not_allowed', `${req.getCaseSensitiveMethod()} is not allowed on ${pattern}; use ${methods.join(', ')}`), {
        allow: methods.join(', '),
      });
    });
  }
  app.any('/*', (res, req) => {
    const exchange: Exchange = { res, requestId: requestIdFrom(req.getHeader('x-request-id')), aborted: false };
    sendError(exchange, new AppError('not_found', `No route ${req.getCaseSensitiveMethod()} ${req.getUrl()}`));
  });
  void deps;
}

export function buildApp(deps: HttpFrontDeps): TemplatedApp {
  const app = uWS.App();
  const routedPaths = new Map<string, string[]>();
  const record = (pattern: string, method: string) => routedPaths.set(pattern, [...(routedPaths.get(pattern) ?? []), method]);
  for (const op of deps.ops) {
    routeOp(app, deps, op);
    for (const pattern of patternsOf(op)) record(pattern, op.http.method);
  }
  staticJson(app, `${apiPrefix}/openapi.json`, () => ({ status: '200 OK', json: deps.openapi() }));
  staticJson(app, '/healthz', () => ({ status: '200 OK', json: { status: 'ok' } }));
  staticJson(app, '/readyz', () =>
    deps.isReady() ? { status: '200 OK', json: { status: 'ready' } } : { status: '503 Service Unavailable', json: { status: 'starting' } },
  );
  for (const path of [`${apiPrefix}/openapi.json`, '/healthz', '/readyz', '/metrics']) record(path, 'GET');
  app.get('/metrics', (res) => {
    let aborted = false;
    res.onAborted(() => (aborted = true));
    void deps.metrics.render().then((text) => {
      if (!aborted) res.cork(() => res.writeHeader('content-type', deps.metrics.contentType).end(text));
    });
  });
  fallbacks(app, deps, routedPaths);
  return app;
}

export function listen(app: TemplatedApp, host: string, port: number): Promise<HttpFront> {
  return new Promise((resolve, reject) => {
    app.listen(host, port, (socket: us_listen_socket | false) => {
      if (!socket) {
        reject(new Error(`REST front could not listen on ${host}:${port}`));
        return;
      }
      resolve({ port: uWS.us_socket_local_port(socket), close: () => uWS.us_listen_socket_close(socket) });
    });
  });
}
