/**
 * What the REST front serves besides the op table, named once for the router (transport/http/server.ts) and the
 * OpenAPI document: the document itself, liveness, readiness, the Prometheus scrape and the MCP endpoint. None
 * asks for a key at the route (an MCP tool call checks X-API-Key as its REST operation does).
 */
export interface ServiceRoute {
  /** The operationId in the document, and the name the front's metrics and recorded statuses use. */
  readonly id: string;
  readonly path: string;
  /** Default GET. */
  readonly method?: 'get' | 'post';
  readonly summary: string;
  readonly contentType: string;
  /** Every status the route answers with, and what it means. */
  readonly statuses: Readonly<Record<string, string>>;
  /** The JSON body's schema per status where the document says more than "an object". */
  readonly schemas?: Readonly<Record<string, object>>;
}

/** The registry a node serves, as /readyz names it: nodes sharing a database serve the same one. */
const readyBody = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['ready', 'starting'] },
    registry: {
      type: 'object',
      description:
        'The bank registry this node answers from; with IBANQA_DATABASE_URL every node converges on the newest published version',
      required: ['fingerprint', 'version', 'generated_at'],
      properties: {
        fingerprint: { type: 'string', pattern: '^[0-9a-f]{16}$' },
        version: { type: 'integer', minimum: 0 },
        generated_at: { type: ['string', 'null'], format: 'date-time' },
      },
    },
  },
} as const;

export const openapiRoute: ServiceRoute = {
  id: 'service.openapi',
  path: '/api/v1/openapi.json',
  summary: 'This OpenAPI 3.1 document, built from the operation table',
  contentType: 'application/json',
  statuses: { '200': 'The document' },
};

export const healthRoute: ServiceRoute = {
  id: 'service.healthz',
  path: '/healthz',
  summary: 'Liveness: the process answers',
  contentType: 'application/json',
  statuses: { '200': '{"status":"ok"}' },
};

export const readyRoute: ServiceRoute = {
  id: 'service.readyz',
  path: '/readyz',
  summary:
    'Readiness: 200 once the REST and gRPC fronts listen, with the registry version this node serves',
  contentType: 'application/json',
  statuses: {
    '200': '{"status":"ready","registry":{"fingerprint":"...","version":7,"generated_at":"..."}}',
    '503': '{"status":"starting"} while the service starts',
  },
  schemas: { '200': readyBody, '503': readyBody },
};

export const metricsRoute: ServiceRoute = {
  id: 'service.metrics',
  path: '/metrics',
  summary: 'Prometheus metrics (text exposition format)',
  contentType: 'text/plain',
  statuses: { '200': 'The metrics of every REST front thread' },
};

/**
 * The Model Context Protocol, streamable HTTP transport, stateless: each POST carries JSON-RPC messages and is
 * answered by a server of its own (src/transport/mcp/). Protocol-level refusals are the MCP SDK's JSON-RPC errors.
 */
export const mcpRoute: ServiceRoute = {
  id: 'service.mcp',
  path: '/mcp',
  method: 'post',
  summary:
    'MCP (Model Context Protocol) over streamable HTTP, stateless: every REST operation as a tool, X-API-Key per call',
  contentType: 'text/event-stream',
  statuses: {
    '200':
      'The JSON-RPC answers as a server-sent event stream (or JSON); a refused tool call is a tool error',
    '202': 'Notifications and responses only: accepted, nothing to answer',
    '400': 'A JSON-RPC message the MCP SDK cannot parse, or a batch with initialize',
    '406': 'Accept lacks application/json and text/event-stream',
    '408': 'Error object; error codes: "request_timeout"',
    '413': 'Error object; error codes: "payload_too_large"',
    '415': 'Content-Type is not application/json',
  },
};

export const serviceRoutes: readonly ServiceRoute[] = [
  openapiRoute,
  healthRoute,
  readyRoute,
  metricsRoute,
  mcpRoute,
];
