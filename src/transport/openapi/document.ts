import type { TSchema } from '@sinclair/typebox';
import { contractVersion } from '../../contract-version.js';
import { limits } from '../../limits.js';
import type { HttpOp } from '../../ops/framework/op.js';
import { errorSchema } from '../../ops/framework/schemas.js';
import { wireNameOf } from '../wire-errors.js';
import { errorStatusesOf } from './statuses.js';

/** TypeBox schemas are JSON Schema plus symbol-keyed metadata; JSON.stringify drops the symbols. */
function plain(schema: TSchema): unknown {
  return JSON.parse(JSON.stringify(schema));
}

/** Only the statuses this operation can answer with (statuses.ts says how they are derived). */
function errorResponses(op: HttpOp): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, codes] of errorStatusesOf(op)) {
    responses[status] = {
      description: `Error object; error codes: ${codes.map((code) => JSON.stringify(wireNameOf(code))).join(', ')}`,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return responses;
}

function parametersOf(op: HttpOp): unknown[] {
  const pathNames = op.http.path
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1));
  const parameters: unknown[] = pathNames.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (op.http.inputFrom === 'query') {
    const properties = (op.input as { properties?: Record<string, TSchema> }).properties ?? {};
    const required = new Set((op.input as { required?: string[] }).required ?? []);
    for (const [name, schema] of Object.entries(properties)) {
      if (!pathNames.includes(name))
        parameters.push({ name, in: 'query', required: required.has(name), schema: plain(schema) });
    }
  }
  parameters.push({
    name: 'X-Request-ID',
    in: 'header',
    required: false,
    schema: { type: 'string', maxLength: limits.requestIdCharsMax },
  });
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

/** The OpenAPI 3.1 document, built from the op table: never written by hand, never out of date. */
export function buildOpenApi(ops: readonly HttpOp[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
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
      description:
        'Synthetic, checksum-valid IBANs and bank QA data. A checksum-valid IBAN does not establish that an account exists. ' +
        'Every response carries X-Request-ID (a client value of 1-128 printable ASCII characters is echoed, otherwise a UUIDv7). ' +
        'Errors are the Error object {error, message, request_id}. The same operations are served over gRPC (proto/ibanqa/v1).',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas: { Error: plain(errorSchema) },
    },
  };
}
