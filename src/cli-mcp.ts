/** `ibanqa mcp`: the service as an MCP server on stdio, for an assistant that starts it as a subprocess. */
import type { Command } from 'commander';
import { loadConfig } from './config.js';

/** The key tool calls use: --api-key, else IBANQA_API_KEY (the environment keeps it out of `ps`); '' is none. */
export function mcpApiKey(option: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const key = option ?? env.IBANQA_API_KEY ?? '';
  return key === '' ? undefined : key;
}

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      'MCP server on stdio: every REST operation as a tool, run by the service in this process',
    )
    .option(
      '--api-key <key>',
      'API key for every tool call (default IBANQA_API_KEY); without one only keyless calls work',
    )
    .option('--data-dir <dir>', 'state directory (IBANQA_DATA_DIR)')
    .action(async (options: { apiKey?: string; dataDir?: string }) => {
      const config = loadConfig(
        process.env,
        options.dataDir === undefined ? {} : { dataDir: options.dataDir },
      );
      // Loaded only here, as for `serve`: the service and the pool cost start-up time other commands do not need.
      const { serveMcpStdio } = await import('./mcp-stdio.js');
      await serveMcpStdio(config, mcpApiKey(options.apiKey, process.env));
    });
}
