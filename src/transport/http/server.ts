import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import type { Logger } from 'pino';
import { AppError, toAppError } from '../../errors.js';
import { limits } from '../../limits.js';
import type { HttpOp } from '../../ops/framework/op.js';
import type { CallIdentity, ExecuteOutcome, Service } from '../../service/execute.js';
import { readBody, parseJsonBody } from './body.js';
import { readMultipart } from './multipart.js';
import { uploadRulesOf } from '../upload-rules.js';
import { requestIdFrom } from './request-id.js';
import { renderBody, RenderedBody } from '../../render/body.js';
import { outputJsonBytes, outputJsonView } from '../../render/json-bytes.js';
import { csvType, jsonType, send, sendError, sendHead, type Exchange } from './respond.js';
import type { HttpMetrics } from './metrics.js';
import { clientAddress, type TrustedProxies } from './client-address.js';
import { preflightHeaders, type CorsPolicy } from './cors.js';
import { decodePathParameter, framingProblem } from './request-head.js';
import { uwsBuild } from './uws-build.js';
import { consolePaths, routeConsole } from './console-routes.js';
import { listenFailure } from '../port-claim.js';
import type { RegistryIdentity } from '../../registry/store/types.js';
import type { StatusObserver } from '../observed-statuses.js';
import {
  healthRoute,
  metricsRoute,
  openapiRoute,
  readyRoute,
  type ServiceRoute,
} from '../service-routes.js';

export const apiPrefix = '/api/v1';

/**
 * A JSON value the front serializes as it writes: into the shared scratch, handed to uWS (which copies it)
 * in the same synchronous step, so no other answer can reuse the scratch in between.
 */
export interface JsonToWrite {
  readonly json: unknown;
}

/** A REST answer, complete: what the front writes after the service settled. */
export interface HttpAnswer {
  readonly status: string;
  readonly contentType: string;
  readonly body: string | Uint8Array | JsonToWrite;
  readonly headers: Readonly<Record<string, string>>;
}

/** An answer that can cross threads: a JSON body serialized into bytes of its own. */
export function portableAnswer(answer: HttpAnswer): HttpAnswer {
  return isJsonToWrite(answer.body)
    ? { ...answer, body: outputJsonBytes(answer.body.json) }
    : answer;
}

function isJsonToWrite(body: HttpAnswer['body']): body is JsonToWrite {
  return typeof body === 'object' && !(body instanceof Uint8Array);
}

/** Only call where the result goes to uWS before anything else can run: the view is of a reused scratch. */
function bodyBytes(body: HttpAnswer['body']): string | Uint8Array {
  return isJsonToWrite(body) ? outputJsonView(body.json) : body;
}

/** Runs one REST call to its answer (the service, on this thread or, for a front thread, partly on the main thread). */
export interface HttpCalls {
  answer(op: HttpOp, raw: unknown, identity: CallIdentity): Promise<HttpAnswer>;
}

/** The status line and body of an executed call: the one place a REST success is shaped. */
export async function answerOf(op: HttpOp, outcome: ExecuteOutcome): Promise<HttpAnswer> {
  const code = op.successStatusOf?.(outcome.output as never) ?? op.successStatus;
  const status =
    code === undefined
      ? '200 OK'
      : `${code} ${code === 200 ? 'OK' : code === 201 ? 'Created' : 'Accepted'}`;
  if (!(outcome.output instanceof RenderedBody) && outcome.format === 'json') {
    return {
      status,
      contentType: jsonType,
      body: { json: outcome.output },
      headers: outcome.headers,
    };
  }
  const rendered =
    outcome.output instanceof RenderedBody
      ? outcome.output
      : await renderBody(op, outcome.output, outcome.format);
  return {
    status,
    contentType: rendered.format === 'csv' ? csvType : jsonType,
    body: rendered.body,
    headers: outcome.headers,
  };
}

/** Calls run by this thread's service. */
export function serviceCalls(service: Pick<Service, 'execute'>): HttpCalls {
  return {
    answer: async (op, raw, identity) =>
      answerOf(op, await service.execute(op, raw, identity, { serialized: true })),
  };
}

export interface HttpFrontDeps {
  readonly service: Service;
  /** How calls run; default: `serviceCalls(service)`. A front thread sends some of them to the main thread. */
  readonly calls?: HttpCalls;
  readonly ops: readonly HttpOp[];
  readonly openapi: () => unknown;
  readonly logger: Logger;
  readonly metrics: HttpMetrics;
  readonly isReady: () => boolean;
  /** The registry this front answers from, as /readyz names it (nodes sharing a database compare it). */
  readonly registryIdentity?: () => RegistryIdentity;
  /** Peers whose X-Forwarded-For names the client (the keyless per-IP limit counts that address). */
  readonly trustedProxies: TrustedProxies;
  /** Off unless IBANQA_CORS_ORIGINS is set. */
  readonly cors?: CorsPolicy;
  /** Records each kind of answer (IBANQA_OBSERVED_STATUSES_DIR); off when undefined. */
  readonly observer?: StatusObserver;
}

export interface HttpFront {
  readonly port: number;
  close(): void;
}

function clientIp(res: HttpResponse, req: HttpRequest, proxies: TrustedProxies): string {
  const peer = Buffer.from(res.getRemoteAddressAsText()).toString();
  return clientAddress(peer, req.getHeader('x-forwarded-for'), proxies);
}

function paramNamesOf(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
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
function readCallParts(
  op: HttpOp,
  res: HttpResponse,
  req: HttpRequest,
  proxies: TrustedProxies,
): CallParts {
  const apiKey = req.getHeader('x-api-key');
  const length = req.getHeader('content-length');
  const params: Record<string, string> = {};
  paramNamesOf(op.http.path).forEach((name, index) => {
    params[name] = decodePathParameter(name, req.getParameter(index) ?? '');
  });
  return {
    apiKey: apiKey === '' ? undefined : apiKey,
    // Only keyless calls are counted by address; for a keyed one the lookup was ~4 % of a validate (profile).
    ip: apiKey === '' ? clientIp(res, req, proxies) : '',
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
    const { fields, files } = await readMultipart(
      exchange,
      parts.contentType,
      parts.contentLength,
      uploadRulesOf(op),
    );
    return { ...fields, files, ...parts.params };
  }
  const body = await readBody(exchange, parts.contentLength, limits.httpJsonBodyBytesMax);
  const parsed = parseJsonBody(body);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new AppError('invalid_argument', 'Request body must be a JSON object');
  }
  return Object.keys(parts.params).length === 0
    ? parsed
    : { ...(parsed as object), ...parts.params };
}

async function handleOp(
  deps: HttpFrontDeps,
  calls: HttpCalls,
  op: HttpOp,
  exchange: Exchange,
  parts: CallParts,
): Promise<void> {
  let status = '200 OK';
  try {
    const raw = await rawInputOf(op, exchange, parts);
    const answer = await calls.answer(op, raw, { apiKey: parts.apiKey, ip: parts.ip });
    status = answer.status;
    send(exchange, status, answer.contentType, bodyBytes(answer.body), answer.headers);
  } catch (thrown) {
    status = answerFailure(deps, op.name, exchange, thrown);
  } finally {
    deps.metrics.observe(op.name, status, 'rest', exchange.startedMs);
  }
}

/** Answers a failed request with its Error object; a bug (not an AppError) is logged with the request id and is a 500. */
function answerFailure(
  deps: HttpFrontDeps,
  name: string,
  exchange: Exchange,
  thrown: unknown,
): string {
  const error = toAppError(thrown);
  if (error.code === 'internal')
    deps.logger.error(
      { err: error.cause ?? thrown, requestId: exchange.requestId, op: name },
      'internal error',
    );
  sendError(exchange, error);
  return error.code;
}

function openExchange(deps: HttpFrontDeps, res: HttpResponse, req: HttpRequest): Exchange {
  const requestId = requestIdFrom(req.getHeader('x-request-id'));
  const exchange: Exchange = {
    res,
    requestId: requestId.id,
    startedMs: performance.now(),
    aborted: false,
  };
  if (requestId.replaced) exchange.requestIdReplaced = true;
  if (deps.cors?.enabled === true) {
    const origin = deps.cors.allowed(req.getHeader('origin'));
    if (origin !== undefined) exchange.corsOrigin = origin;
  }
  return exchange;
}

/** Records the answer's status under the route's name (an operationId, or the router's own name). */
function observeAnswer(
  exchange: Exchange,
  observer: StatusObserver,
  operation: string,
  req: HttpRequest,
): void {
  const keyed = req.getHeader('x-api-key') !== '';
  exchange.observe = (status, code) =>
    observer.record({ transport: 'rest', operation, status, code, keyed });
}

/**
 * Runs a route's synchronous part: anything it throws (a bug included) is answered here, so no request
 * can leave a connection hanging or reach the process's uncaught-exception path. `observed`: false for the
 * console's files, which are not part of the API contract the recorded statuses are checked against.
 */
function guarded(
  deps: HttpFrontDeps,
  name: string,
  body: (exchange: Exchange, res: HttpResponse, req: HttpRequest) => void,
  observed = true,
) {
  return (res: HttpResponse, req: HttpRequest) => {
    const exchange = openExchange(deps, res, req);
    if (observed && deps.observer !== undefined) observeAnswer(exchange, deps.observer, name, req);
    res.onAborted(() => {
      exchange.aborted = true;
      exchange.onAbort?.();
    });
    try {
      const problem = framingProblem(req);
      if (problem !== undefined) {
        sendError(exchange, new AppError('invalid_argument', problem), {}, true);
        deps.metrics.observe(name, 'invalid_argument', 'rest', exchange.startedMs);
        return;
      }
      body(exchange, res, req);
    } catch (thrown) {
      const outcome = answerFailure(deps, name, exchange, thrown);
      deps.metrics.observe(name, outcome, 'rest', exchange.startedMs);
    }
  };
}

function routeOp(app: TemplatedApp, deps: HttpFrontDeps, calls: HttpCalls, op: HttpOp): void {
  const handler = guarded(deps, op.name, (exchange, res, req) => {
    const parts = readCallParts(op, res, req, deps.trustedProxies);
    handleOp(deps, calls, op, exchange, parts).catch((thrown: unknown) => {
      // Only a failure after the answer (metrics) gets here: log it with its request, keep serving.
      deps.logger.error(
        { err: thrown, requestId: exchange.requestId, op: op.name },
        'failure after the response',
      );
    });
  });
  for (const pattern of patternsOf(op)) {
    if (op.http.method === 'GET') app.get(pattern, handler);
    else if (op.http.method === 'POST') app.post(pattern, handler);
    else app.del(pattern, handler);
  }
}

/** The op's routes under /api/v1 (its path and aliases), and the path without the prefix when the op declares that alias. */
export function patternsOf(op: HttpOp): string[] {
  const prefixed = [op.http.path, ...(op.http.aliasPaths ?? [])].map(
    (path) => `${apiPrefix}${path}`,
  );
  return op.http.unprefixedAlias === true ? [...prefixed, op.http.path] : prefixed;
}

function staticJson(
  app: TemplatedApp,
  deps: HttpFrontDeps,
  route: ServiceRoute,
  body: () => { status: string; json: unknown },
): void {
  app.get(
    route.path,
    guarded(deps, route.id, (exchange) => {
      const { status, json } = body();
      send(exchange, status, jsonType, JSON.stringify(json));
    }),
  );
  app.head(
    route.path,
    guarded(deps, route.id, (exchange) => {
      const { status, json } = body();
      sendHead(exchange, status, jsonType, Buffer.byteLength(JSON.stringify(json)));
    }),
  );
}

function fallbacks(
  app: TemplatedApp,
  deps: HttpFrontDeps,
  routedPaths: ReadonlyMap<string, string[]>,
): void {
  for (const [pattern, methods] of routedPaths) {
    if (deps.cors?.enabled === true) {
      app.options(
        pattern,
        guarded(deps, 'preflight', (exchange) => {
          send(
            exchange,
            exchange.corsOrigin === undefined ? '403 Forbidden' : '204 No Content',
            jsonType,
            '',
            exchange.corsOrigin === undefined ? {} : preflightHeaders,
          );
        }),
      );
    }
    app.any(
      pattern,
      guarded(deps, 'method_not_allowed', (exchange, _res, req) => {
        sendError(
          exchange,
          new AppError(
            'method_not_allowed',
            `${req.getCaseSensitiveMethod()} is not allowed on ${pattern}; use ${methods.join(', ')}`,
          ),
          {
            allow: methods.join(', '),
          },
        );
      }),
    );
  }
  app.any(
    '/*',
    guarded(deps, 'not_found', (exchange, _res, req) => {
      sendError(
        exchange,
        new AppError('not_found', `No route ${req.getCaseSensitiveMethod()} ${req.getUrl()}`),
      );
    }),
  );
}

export function buildApp(deps: HttpFrontDeps): TemplatedApp {
  const app = uwsBuild().module.App();
  const routedPaths = new Map<string, string[]>();
  const record = (pattern: string, method: string) =>
    routedPaths.set(pattern, [...(routedPaths.get(pattern) ?? []), method]);
  const calls = deps.calls ?? serviceCalls(deps.service);
  for (const op of deps.ops) {
    routeOp(app, deps, calls, op);
    for (const pattern of patternsOf(op)) record(pattern, op.http.method);
  }
  staticJson(app, deps, openapiRoute, () => ({
    status: '200 OK',
    json: deps.openapi(),
  }));
  staticJson(app, deps, healthRoute, () => ({ status: '200 OK', json: { status: 'ok' } }));
  staticJson(app, deps, readyRoute, () => {
    const registry = deps.registryIdentity?.();
    const served = registry === undefined ? {} : { registry };
    return deps.isReady()
      ? { status: '200 OK', json: { status: 'ready', ...served } }
      : { status: '503 Service Unavailable', json: { status: 'starting', ...served } };
  });
  for (const route of [openapiRoute, healthRoute, readyRoute]) record(route.path, 'GET, HEAD');
  record(metricsRoute.path, 'GET');
  app.get(
    metricsRoute.path,
    guarded(deps, metricsRoute.id, (exchange) => {
      deps.metrics.render().then(
        (text) => send(exchange, '200 OK', deps.metrics.contentType, text),
        (thrown: unknown) => answerFailure(deps, metricsRoute.id, exchange, thrown),
      );
    }),
  );
  routeConsole(app, (name, body) => guarded(deps, name, body, false));
  for (const path of consolePaths) record(path, 'GET, HEAD');
  fallbacks(app, deps, routedPaths);
  return app;
}

/**
 * `exclusive`: the port is this socket's alone (no SO_REUSEPORT), so a second service cannot join it; `shared`:
 * REST front threads of one process listen on the same port on purpose, and the kernel spreads connections.
 */
export type ListenMode = 'exclusive' | 'shared';

/**
 * uSockets' listen options (libusockets.h: LIBUS_LISTEN_DEFAULT 0 sets SO_REUSEPORT, LIBUS_LISTEN_EXCLUSIVE_PORT 1
 * does not); the uWS.js typings declare them as an enum with no run-time value.
 */
const listenOptions: Readonly<Record<ListenMode, number>> = { exclusive: 1, shared: 0 };

export function listen(
  app: TemplatedApp,
  host: string,
  port: number,
  mode: ListenMode,
  setting = 'IBANQA_PORT or --port',
): Promise<HttpFront> {
  const uWS = uwsBuild().module;
  const options = listenOptions[mode];
  return new Promise((resolve, reject) => {
    // uWS.js takes (host, port, options, callback) at run time; its typings list options only without a host.
    const listenWith = app.listen.bind(app) as unknown as (
      host: string,
      port: number,
      options: number,
      callback: (socket: us_listen_socket | false) => void,
    ) => TemplatedApp;
    listenWith(host, port, options, (socket: us_listen_socket | false) => {
      if (!socket) {
        reject(listenFailure({ front: 'REST', host, port, setting }));
        return;
      }
      resolve({
        port: uWS.us_socket_local_port(socket),
        close: () => uWS.us_listen_socket_close(socket),
      });
    });
  });
}
