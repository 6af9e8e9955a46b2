import type { TSchema } from '@sinclair/typebox';
import { contractVersion } from '../../contract-version.js';
import { limits } from '../../limits.js';
import type { HttpOp } from '../../ops/framework/op.js';
import { errorSchema } from '../../ops/framework/schemas.js';
import { serviceRoutes, type ServiceRoute } from '../service-routes.js';
import { wireNamesOf } from '../wire-errors.js';
import { errorStatusesOf } from './statuses.js';

/** TypeBox schemas are JSON Schema plus symbol-keyed metadata; JSON.stringify drops the symbols. */
function plain(schema: TSchema): unknown {
  return JSON.parse(JSON.stringify(schema));
}

/**
 * Only the statuses this operation can answer with (statuses.ts says how they are derived), each naming the
 * codes behind it and holding its `error` strings to exactly those.
 */
function errorResponses(op: HttpOp): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, codes] of errorStatusesOf(op)) {
    const wire = [...new Set(codes.flatMap(wireNamesOf))];
    responses[status] = {
      description: `Error object; error codes: ${wire.map((name) => JSON.stringify(name)).join(', ')}`,
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/Error' },
              { type: 'object', properties: { error: { enum: wire } } },
            ],
          },
        },
      },
    };
  }
  return responses;
}

const requestIdParameter = {
  name: 'X-Request-ID',
  in: 'header',
  required: false,
  description:
    'Correlation id: 1-128 printable ASCII characters are echoed in the answer, anything else is replaced by a generated one',
  schema: { type: 'string', maxLength: limits.requestIdCharsMax },
};

function parametersOf(op: HttpOp): unknown[] {
  const pathNames = op.http.path
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1));
  const properties = (op.input as { properties?: Record<string, TSchema> }).properties ?? {};
  const described = (name: string) =>
    (properties[name]?.description as string | undefined) ?? `The ${name.replaceAll('_', ' ')}`;
  const parameters: unknown[] = pathNames.map((name) => ({
    name,
    in: 'path',
    required: true,
    description: described(name),
    schema: { type: 'string' },
  }));
  if (op.http.inputFrom === 'query') {
    const required = new Set((op.input as { required?: string[] }).required ?? []);
    for (const [name, schema] of Object.entries(properties)) {
      if (!pathNames.includes(name))
        parameters.push({
          name,
          in: 'query',
          required: required.has(name),
          description: described(name),
          schema: plain(schema),
        });
    }
  }
  parameters.push(requestIdParameter);
  return parameters;
}

function operationOf(op: HttpOp, alias: boolean): Record<string, unknown> {
  const success = String(op.successStatus ?? 200);
  const content: Record<string, unknown> = { 'application/json': { schema: plain(op.output) } };
  // An op whose status follows its output (a review poll) answers 202 and 200 with the same body.
  const alsoAccepted =
    op.successStatusOf === undefined
      ? {}
      : { '202': { description: 'Accepted: still running', content } };
  if (op.csv !== undefined)
    content['text/csv'] = {
      schema: { type: 'string', description: `Columns: ${op.csv.headers.join(', ')}` },
    };
  return {
    operationId: alias ? `${op.name}.alias` : op.name,
    summary: op.summary,
    description: `${op.description}\n\ngRPC: ibanqa.v1.IbanQa/${op.grpc.method}.`,
    tags: [op.tag],
    security:
      op.access === 'none'
        ? []
        : op.access === 'key_optional'
          ? [{}, { ApiKey: [] }]
          : [{ ApiKey: [] }],
    parameters: parametersOf(op),
    ...(op.http.inputFrom === 'body'
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: plain(op.input) } },
          },
        }
      : {}),
    ...(op.http.inputFrom === 'multipart'
      ? {
          requestBody: {
            required: true,
            content: { 'multipart/form-data': { schema: plain(op.multipartSchema ?? op.input) } },
          },
        }
      : {}),
    responses: {
      [success]: {
        description: 'Success',
        headers: { 'X-Request-ID': { schema: { type: 'string' } } },
        content,
      },
      ...alsoAccepted,
      ...errorResponses(op),
    },
  };
}

const serviceTag = 'Service';

/** What each tag groups; a tag an op uses without a line here fails the document's lint (tag-description). */
const tagDescriptions: Readonly<Record<string, string>> = {
  IBAN: 'Synthetic checksum-valid IBANs, validation, national check digits and test cases',
  'Bank intelligence':
    'The bank registry built from official publisher files: lookup, search, export, provenance',
  'Registry watchlists': 'Per-key watches on registry records and the changes between snapshots',
  'US routing':
    'US ABA routing numbers: lookup, synthetic numbers and FedACH/Fedwire directory targets',
  Account: "The caller's plan, credits and usage",
  Profiles: 'Synthetic QA profiles (people with bank context), labelled synthetic',
  'Fixture manifests': 'Signed, reproducible fixture manifests and their public verification rules',
  'Name matching': 'The Verification-of-Payee name-matching benchmark',
  'Payment scenarios': 'Payment test scenarios (paths, reason codes, amounts)',
  'Statement review': 'Asynchronous bank statement review: upload, poll, delete',
  [serviceTag]: 'The document, liveness, readiness and metrics: public, no key',
};

/** A route outside the op table (service-routes.ts): public, with the statuses it declares. */
function serviceOperationOf(route: ServiceRoute): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, description] of Object.entries(route.statuses)) {
    responses[status] = {
      description,
      headers: { 'X-Request-ID': { schema: { type: 'string' } } },
      content: {
        [route.contentType]: {
          schema:
            route.schemas?.[status] ??
            (route.contentType === 'application/json' ? { type: 'object' } : { type: 'string' }),
        },
      },
    };
  }
  // A request with broken framing is refused before any route runs (transport/http/request-head.ts).
  responses['400'] = {
    description: 'Error object; error codes: "invalid_argument"',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
  return {
    operationId: route.id,
    summary: route.summary,
    description: `${route.summary}. No key.`,
    tags: [serviceTag],
    security: [],
    parameters: [requestIdParameter],
    responses,
  };
}

/** The OpenAPI 3.1 document, built from the op table: never written by hand, never out of date. */
export function buildOpenApi(ops: readonly HttpOp[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of serviceRoutes) paths[route.path] = { get: serviceOperationOf(route) };
  for (const op of ops) {
    for (const route of [op.http.path, ...(op.http.aliasPaths ?? [])]) {
      const path = `/api/v1${route.replace(/:(\w+)/g, '{$1}')}`;
      paths[path] = {
        ...(paths[path] ?? {}),
        [op.http.method.toLowerCase()]: operationOf(op, route !== op.http.path),
      };
    }
    if (op.http.unprefixedAlias === true) {
      const alias = op.http.path.replace(/:(\w+)/g, '{$1}');
      paths[alias] = {
        ...(paths[alias] ?? {}),
        [op.http.method.toLowerCase()]: {
          ...operationOf(op, true),
          operationId: `${op.name}.unprefixed`,
        },
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'ibanqa: synthetic IBAN and bank QA engine',
      version: contractVersion,
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Synthetic, checksum-valid IBANs and bank QA data. A checksum-valid IBAN does not establish that an account exists. ' +
        'Every response carries X-Request-ID (a client value of 1-128 printable ASCII characters is echoed, otherwise a UUIDv7). ' +
        'Errors are the Error object {error, message, request_id}. The same operations are served over gRPC (proto/ibanqa/v1).',
    },
    servers: [{ url: '/' }],
    tags: [...new Set([...ops.map((op) => op.tag), serviceTag])].map((name) => ({
      name,
      ...(tagDescriptions[name] === undefined ? {} : { description: tagDescriptions[name] }),
    })),
    paths,
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas: { Error: plain(errorSchema) },
    },
  };
}
