/**
 * What the REST front serves besides the op table, named once for the router (transport/http/server.ts) and the
 * OpenAPI document: the document itself, liveness, readiness and the Prometheus scrape. All are public (no key).
 */
export interface ServiceRoute {
  /** The operationId in the document, and the name the front's metrics and recorded statuses use. */
  readonly id: string;
  readonly path: string;
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

export const serviceRoutes: readonly ServiceRoute[] = [
  openapiRoute,
  healthRoute,
  readyRoute,
  metricsRoute,
];
