import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function newClient(): Client {
  return new Client({ name: 'ibanqa-test', version: '1.0.0' });
}

/** The SDK's client over streamable HTTP to /mcp of a running service, sending the key as REST clients do. */
export async function httpClient(restBase: string, key: string | undefined): Promise<Client> {
  const url = new URL('/mcp', restBase);
  const headers: Record<string, string> = key === undefined ? {} : { 'x-api-key': key };
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

/** The SDK's client over stdio to `ibanqa mcp` started as an assistant starts it: a subprocess, the key in the environment. */
export async function stdioClient(dataDir: string, key: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'src/cli.ts', 'mcp', '--data-dir', dataDir],
    cwd: root,
    env: { PATH: process.env.PATH ?? '', IBANQA_API_KEY: key, IBANQA_LOG_LEVEL: 'warn' },
    stderr: 'ignore',
  });
  const client = newClient();
  await client.connect(transport);
  return client;
}

/** A tool result's parts the tests compare. */
export interface ToolAnswer {
  readonly isError: boolean;
  readonly text: string;
  readonly structured: Record<string, unknown> | undefined;
}

export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  return {
    isError: result.isError === true,
    text: content[0]?.text ?? '',
    structured: result.structuredContent as Record<string, unknown> | undefined,
  };
}
