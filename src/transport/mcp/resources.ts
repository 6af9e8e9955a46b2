import { ErrorCode, McpError, type Resource } from '@modelcontextprotocol/sdk/types.js';
import type { HttpOp } from '../../ops/framework/op.js';
import { portableAnswer } from '../http/calls.js';
import { newRequestId } from '../http/request-id.js';
import { openapiRoute } from '../service-routes.js';
import type { McpCallDeps } from './call.js';
import { refusalOf, toolErrorOf } from './call.js';

/** A readable document: the OpenAPI document, or a REST GET that needs no argument. */
export interface McpResource {
  readonly resource: Resource;
  /** undefined: the OpenAPI document. */
  readonly op: HttpOp | undefined;
}

const scheme = 'ibanqa://';

/** A resource's URI is its REST path under the ibanqa scheme (`ibanqa://api/v1/openapi.json`). */
function uriOf(path: string): string {
  return `${scheme}${path.replace(/^\//, '')}`;
}

/** GET ops without path parameters or required input: catalogs, specs and the caller's balances. */
function isDocument(op: HttpOp): boolean {
  const required = (op.input as { required?: readonly string[] }).required ?? [];
  return op.http.method === 'GET' && !op.http.path.includes(':') && required.length === 0;
}

/** The resources: the OpenAPI document, and every argument-free GET of the table (read as REST answers it). */
export function resourcesOf(ops: readonly HttpOp[]): ReadonlyMap<string, McpResource> {
  const all: McpResource[] = [
    {
      op: undefined,
      resource: {
        uri: uriOf(openapiRoute.path),
        name: openapiRoute.id,
        title: openapiRoute.summary,
        mimeType: 'application/json',
      },
    },
    ...ops.filter(isDocument).map((op) => ({
      op,
      resource: {
        uri: uriOf(`/api/v1${op.http.path}`),
        name: op.name,
        title: op.summary,
        description: op.description,
        mimeType: 'application/json',
      },
    })),
  ];
  return new Map(all.map((entry) => [entry.resource.uri, entry]));
}

/** Reads a resource through the same path as REST; a refusal is a JSON-RPC error carrying the REST Error object. */
export async function readResource(
  entry: McpResource,
  openapi: () => unknown,
  deps: McpCallDeps,
): Promise<string> {
  if (entry.op === undefined) return JSON.stringify(openapi());
  const requestId = newRequestId();
  try {
    const { body } = portableAnswer(await deps.calls.answer(entry.op, {}, deps.identity));
    return typeof body === 'string' ? body : Buffer.from(body as Uint8Array).toString('utf8');
  } catch (thrown) {
    const error = refusalOf(thrown, deps, requestId, entry.op.name);
    const refusal = toolErrorOf(error, requestId).structuredContent;
    throw new McpError(ErrorCode.InvalidRequest, String(refusal?.message), refusal);
  }
}
