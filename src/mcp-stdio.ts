import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { createLogger } from './logger.js';
import { openServiceCore, printDemoKeys, type ServiceCore } from './main.js';
import { ServiceMetrics } from './metrics/service-metrics.js';
import { isHttpOp } from './ops/framework/op.js';
import { ops } from './ops/table.js';
import { installCrashGuards } from './process-guard.js';
import { serviceCalls, type HttpCalls } from './transport/http/calls.js';
import { buildOpenApi } from './transport/openapi/document.js';
import { createMcpServer, mcpCatalog } from './transport/mcp/server.js';

/** The caller's address for the keyless allowance: a stdio client is on this machine. */
const localCaller = '127.0.0.1';

/** Opens the service; a failure (a data directory it cannot open) ends the process, which the client sees. */
function openCore(config: Config, logger: Logger): Promise<ServiceCore> {
  const opening = openServiceCore(config, logger, new ServiceMetrics());
  opening.then(
    (core) => printDemoKeys(core.demoKeys, (line) => process.stderr.write(`${line}\n`)),
    (error: unknown) => {
      logger.fatal({ err: error }, 'ibanqa MCP: the service did not open');
      process.exit(1);
    },
  );
  return opening;
}

/** Calls that wait for the service: the handshake and the tool list need only the op table. */
function callsWhenOpen(opening: Promise<ServiceCore>): HttpCalls {
  return {
    answer: async (op, raw, identity) =>
      serviceCalls((await opening).service).answer(op, raw, identity),
  };
}

/**
 * `ibanqa mcp`: the service in this process (the data directory opened as `serve` opens it, no network front)
 * behind an MCP server on stdin/stdout, so an assistant that starts it as a subprocess needs nothing else running.
 * The server answers the handshake at once and tool calls once the service has opened (the registry and the
 * ledger take seconds). stdout carries only the protocol: logs and the demo keys of a fresh store go to stderr.
 * It stops, flushing every acknowledged debit, when the client closes stdin or on SIGINT/SIGTERM.
 */
export async function serveMcpStdio(config: Config, apiKey: string | undefined): Promise<void> {
  const logger = createLogger(config.logLevel);
  const uninstallCrashGuards = installCrashGuards(logger);
  const opening = openCore(config, logger);
  const httpOps = ops.filter(isHttpOp);
  const openapi = buildOpenApi(httpOps);
  const server = createMcpServer(
    mcpCatalog(httpOps, () => openapi),
    callsWhenOpen(opening),
    { apiKey, ip: localCaller },
    logger,
  );
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= server
      .close()
      .then(async () => (await opening).close())
      .then(() => {
        uninstallCrashGuards();
        process.exit(0);
      });
  };
  process.stdin.once('end', stop);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await server.connect(new StdioServerTransport());
  logger.info(
    { dataDir: config.dataDir, keyed: apiKey !== undefined },
    'ibanqa MCP server on stdio',
  );
}
