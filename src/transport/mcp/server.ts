import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { contractVersion } from '../../contract-version.js';
import type { HttpOp } from '../../ops/framework/op.js';
import type { CallIdentity } from '../../service/execute.js';
import type { HttpCalls } from '../http/calls.js';
import type { HttpMetrics } from '../http/metrics.js';
import { callTool, type McpCallDeps } from './call.js';
import { readResource, resourcesOf, type McpResource } from './resources.js';
import { toolsOf, type McpTool } from './tools.js';

/** What an MCP server serves, built once per process from the op table. */
export interface McpCatalog {
  readonly tools: ReadonlyMap<string, McpTool>;
  readonly resources: ReadonlyMap<string, McpResource>;
  readonly openapi: () => unknown;
  readonly version: string;
}

/** The server's version is the API contract's: tools and resources change with it. */
export function mcpCatalog(ops: readonly HttpOp[], openapi: () => unknown): McpCatalog {
  return { tools: toolsOf(ops), resources: resourcesOf(ops), openapi, version: contractVersion };
}

const instructions =
  'ibanqa generates and validates synthetic IBANs and serves a bank registry. Every tool is one REST operation ' +
  '(same input, same answer, same metering and plan gates); a refusal is a tool error whose structured content ' +
  'is the REST Error object with its HTTP status.';

type Notify = (notification: ServerNotification) => Promise<void>;

/** Start and end of a call, when the client asked for progress (a tool call runs as one service call). */
async function withProgress(
  token: string | number | undefined,
  notify: Notify,
  run: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  if (token === undefined) return run();
  const progress = (value: number, message: string) =>
    notify({
      method: 'notifications/progress',
      params: { progressToken: token, progress: value, total: 1, message },
    });
  await progress(0, 'started');
  const result = await run();
  await progress(1, result.isError === true ? 'refused' : 'done');
  return result;
}

/** One MCP server over the catalog for one caller (a stdio process, or one HTTP request). */
export function createMcpServer(
  catalog: McpCatalog,
  calls: HttpCalls,
  identity: CallIdentity,
  logger: Logger,
  metrics?: HttpMetrics,
): Server {
  const server = new Server(
    { name: 'ibanqa', version: catalog.version },
    { capabilities: { tools: {}, resources: {} }, instructions },
  );
  const deps: McpCallDeps = {
    calls,
    identity,
    logger,
    ...(metrics === undefined ? {} : { metrics }),
  };
  const tools = [...catalog.tools.values()].map((entry) => entry.tool);
  const resources = [...catalog.resources.values()].map((entry) => entry.resource);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = catalog.tools.get(request.params.name);
    if (tool === undefined)
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}`);
    return withProgress(request.params._meta?.progressToken, extra.sendNotification, () =>
      callTool(tool, request.params.arguments ?? {}, deps),
    );
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const entry = catalog.resources.get(request.params.uri);
    if (entry === undefined)
      throw new McpError(-32002, `Unknown resource ${request.params.uri}`, {
        uri: request.params.uri,
      });
    const text = await readResource(entry, catalog.openapi, deps);
    return { contents: [{ uri: entry.resource.uri, mimeType: 'application/json', text }] };
  });
  return server;
}
