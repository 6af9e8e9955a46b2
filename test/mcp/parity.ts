import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call } from '../helpers/service.js';
import { callTool } from './clients.js';

/** Commerzbank Köln's published example IBAN: valid, and its bank code is in every German registry. */
export const knownBankIban = 'DE89370400440532013000';

interface DocumentedOperation {
  operationId: string;
  parameters?: { name: string; in: string }[];
  requestBody?: {
    content: Record<string, { schema: { properties?: Record<string, { format?: string }> } }>;
  };
}

/** The operations of the service's OpenAPI document by the tool name an MCP client should see. */
async function documentedTools(base: string): Promise<Map<string, DocumentedOperation>> {
  const document = (await call(base, '/openapi.json')).body as {
    paths: Record<string, Record<string, DocumentedOperation>>;
  };
  const documented = new Map<string, DocumentedOperation>();
  for (const [path, methods] of Object.entries(document.paths))
    for (const operation of Object.values(methods))
      // An alias path serves its op again (operationId `<op>.alias`): one tool per op.
      if (
        !operation.operationId.startsWith('service.') &&
        !operation.operationId.endsWith('.alias') &&
        path.startsWith('/api/v1/')
      )
        documented.set(operation.operationId.replaceAll('.', '_'), operation);
  return documented;
}

/** The inputs the document names for an operation: body or form fields, else query and path parameters. */
function documentedInputs(operation: DocumentedOperation): string[] {
  const json = operation.requestBody?.content['application/json']?.schema.properties;
  const form = operation.requestBody?.content['multipart/form-data']?.schema.properties;
  if (json !== undefined) return Object.keys(json);
  // An upload's file name travels next to its base64 bytes (`<field>_filename`).
  if (form !== undefined)
    return Object.entries(form).flatMap(([name, field]) =>
      field.format === 'binary' ? [name, `${name}_filename`] : [name],
    );
  return (operation.parameters ?? [])
    .filter((parameter) => parameter.in === 'query' || parameter.in === 'path')
    .map((parameter) => parameter.name);
}

/** Every documented operation is a tool, with the inputs the document names and a description. */
export async function assertToolsMatchDocument(client: Client, base: string): Promise<void> {
  const documented = await documentedTools(base);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name).sort(), [...documented.keys()].sort());
  for (const tool of tools) {
    const operation = documented.get(tool.name) as DocumentedOperation;
    assert.deepEqual(
      Object.keys(tool.inputSchema.properties ?? {}).sort(),
      documentedInputs(operation).sort(),
      tool.name,
    );
    assert.ok((tool.description ?? '').length > 0, `${tool.name} has a description`);
  }
}

/** A REST call with a JSON body (POST), or without one (GET). */
function rest(base: string, key: string, path: string, body: Record<string, unknown> | undefined) {
  return call(base, path, body === undefined ? { key } : { key, body });
}

/** The REST answer and the tool's for the same input: the tool's structure is the REST JSON (arrays as `rows`). */
export async function assertSameAsRest(
  target: { client: Client; base: string; restKey: string },
  tool: string,
  path: string,
  body: Record<string, unknown>,
  differs: (rest: Record<string, unknown>, mcp: Record<string, unknown>) => void = () => {},
): Promise<void> {
  const answer = await rest(target.base, target.restKey, path, body);
  assert.equal(answer.status, 200, answer.text);
  const mcp = await callTool(target.client, tool, body);
  assert.equal(mcp.isError, false, mcp.text);
  const restJson = Array.isArray(answer.body) ? { rows: answer.body } : answer.body;
  const mcpJson = mcp.structured as Record<string, unknown>;
  differs(restJson, mcpJson);
  assert.deepEqual(mcpJson, restJson);
}

/**
 * A refusal over both: the same status and Error object (its request_id is each answer's own). `body` undefined:
 * a GET over REST, a call without arguments over MCP.
 */
export async function assertSameRefusal(
  target: { client: Client; base: string; restKey: string },
  tool: string,
  path: string,
  body: Record<string, unknown> | undefined,
  status: number,
): Promise<Record<string, unknown>> {
  const answer = await rest(target.base, target.restKey, path, body);
  assert.equal(answer.status, status, answer.text);
  const mcp = await callTool(target.client, tool, body ?? {});
  assert.equal(mcp.isError, true);
  const refusal = { ...(mcp.structured as Record<string, unknown>) };
  assert.equal(refusal.status, status);
  assert.equal(typeof refusal.request_id, 'string');
  const { status: _s, request_id: _m, headers: _h, ...mcpError } = refusal;
  const { request_id: _r, ...restError } = answer.body as Record<string, unknown>;
  assert.deepEqual(mcpError, restError);
  assert.deepEqual(JSON.parse(mcp.text), mcp.structured);
  return refusal;
}

/** A generate the service refuses: the same refusal over both. */
export function assertGenerateRefused(
  target: { client: Client; base: string; restKey: string },
  body: Record<string, unknown>,
  status: number,
): Promise<Record<string, unknown>> {
  return assertSameRefusal(target, 'iban_generate', '/generate', body, status);
}

/**
 * generate, validate, lookup and profile over MCP and REST with the same input. A profile reports the profiles
 * left to its key: `profilesLeft` checks the two figures, which are then left out of the comparison.
 */
export async function assertCoreToolsSameAsRest(
  target: { client: Client; base: string; restKey: string },
  seed: string,
  profilesLeft: (rest: unknown, mcp: unknown) => void,
): Promise<void> {
  await assertSameAsRest(target, 'iban_generate', '/generate', {
    country: 'DE',
    quantity: 3,
    seed,
  });
  await assertSameAsRest(target, 'iban_validate', '/validate', {
    ibans: [knownBankIban, 'DE89370400440532013001'],
  });
  await assertSameAsRest(target, 'bank_lookup', '/bank-intelligence/lookup', {
    value: 'COBADEFFXXX',
  });
  await assertSameAsRest(
    target,
    'profile_generate',
    '/profile',
    { country: 'DE', seed },
    (r, m) => {
      profilesLeft(r.generations_left, m.generations_left);
      delete r.generations_left;
      delete m.generations_left;
    },
  );
}
