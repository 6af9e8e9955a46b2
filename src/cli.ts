import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { isPlanId, planIds, type PlanId } from './domain/plans/plans.js';
import { loadConfig, type ConfigOverrides } from './config.js';
import { keyLine, listKeysWithBalances } from './cli-keys-list.js';
import { databaseUrlOption, withState, type StateOptions } from './cli-state.js';
import { registerDbCommands } from './cli-db.js';

function portOption(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidArgumentError('a port is an integer from 0 to 65535');
  return port;
}

function planOption(value: string): PlanId {
  if (!isPlanId(value)) throw new InvalidArgumentError(`one of ${planIds.join(', ')}`);
  return value;
}

/** The package's own version (package.json sits one level above src/, and above dist/ for the bundle). */
function packageVersion(): string {
  const manifest = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  return manifest.version;
}

// `ibanqa registry diff | head`: once the reader has gone, the rest of the output has nowhere to go. That is
// the reader's choice, not a failure: stop quietly instead of dying on an unhandled EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

const program = new Command('ibanqa')
  .description('Synthetic IBAN and bank QA engine: REST and gRPC service, API keys, bank registry')
  .version(packageVersion(), '-V, --version', 'print the ibanqa version')
  .showHelpAfterError();

program
  .command('serve')
  .description('Start the REST (uWebSockets.js) and gRPC fronts')
  .option('--host <host>', 'listen address (IBANQA_HOST)')
  .option('--port <port>', 'REST port (IBANQA_PORT)', portOption)
  .option('--grpc-port <port>', 'gRPC port (IBANQA_GRPC_PORT)', portOption)
  .option('--data-dir <dir>', 'state directory (IBANQA_DATA_DIR)')
  .option(...databaseUrlOption)
  .action(async (options: { host?: string; port?: number; grpcPort?: number } & StateOptions) => {
    const overrides: ConfigOverrides = {
      ...(options.host === undefined ? {} : { host: options.host }),
      ...(options.port === undefined ? {} : { httpPort: options.port }),
      ...(options.grpcPort === undefined ? {} : { grpcPort: options.grpcPort }),
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
    };
    // Loaded only here: the fronts (uWS, grpc-js, piscina) cost start-up time every other command does not need.
    const { serveForever } = await import('./main.js');
    await serveForever(loadConfig(process.env, overrides));
  });

const keys = program
  .command('keys')
  .description('Manage API keys (stored hashed; a key is shown once)');

keys
  .command('create')
  .description('Create an API key on a plan and print it once (only its SHA-256 is stored)')
  .requiredOption('--plan <plan>', `one of ${planIds.join(', ')}`, planOption)
  .option('--label <label>', 'a note for the operator')
  .option('--json', 'print one JSON object with the key')
  .option('--data-dir <dir>', 'state directory (IBANQA_DATA_DIR)')
  .option(...databaseUrlOption)
  .action((options: { plan: PlanId; label?: string; json?: boolean } & StateOptions) =>
    withState(options, async ({ keys }) => {
      const created = await keys.createKey(options.plan, new Date(), options.label);
      if (options.json) process.stdout.write(`${JSON.stringify(created)}\n`);
      else
        process.stdout.write(
          `${created.key}\n(id ${created.id}, plan ${created.plan}; shown once, store it now)\n`,
        );
    }),
  );

keys
  .command('list')
  .description(
    'List keys (id, plan, created, revoked, label) with each credit balance and when the period ends',
  )
  .option('--json', 'print a JSON array')
  .option('--data-dir <dir>', 'state directory (IBANQA_DATA_DIR)')
  .option(...databaseUrlOption)
  .action((options: { json?: boolean } & StateOptions) =>
    withState(options, async ({ keys }) => {
      const listed = await listKeysWithBalances(keys, new Date());
      if (options.json) process.stdout.write(`${JSON.stringify(listed)}\n`);
      else for (const key of listed) process.stdout.write(`${keyLine(key)}\n`);
    }),
  );

keys
  .command('revoke <id>')
  .description(
    'Revoke a key by its id (as `keys list` shows it); every running node refuses it within 5 s',
  )
  .option('--data-dir <dir>', 'state directory (IBANQA_DATA_DIR)')
  .option(...databaseUrlOption)
  .action((id: string, options: StateOptions) =>
    withState(options, async ({ keys }) => {
      if (!(await keys.revokeKey(id, new Date()))) {
        process.stderr.write(`no active key with id ${id}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`revoked ${id}\n`);
    }),
  );

registerDbCommands(program);

// registry commands
import { registerRegistryCommands } from './cli-registry.js';
registerRegistryCommands(program);

// fixture manifest commands
import { registerManifestCommands } from './cli-manifest.js';
registerManifestCommands(program);

// MCP server on stdio
import { registerMcpCommand } from './cli-mcp.js';
registerMcpCommand(program);

await program.parseAsync(process.argv);
