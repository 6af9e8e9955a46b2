/**
 * `ibanqa db migrate`: brings the shared database's schema up to date, as every node does when it starts: every
 * table (the state's, the registry publications', the statement reviews') from one list, src/postgres/migrations.ts.
 */
import type { Command } from 'commander';
import { configOf, databaseUrlOption, type StateOptions } from './cli-state.js';
import { migrateDatabase } from './postgres/migrate.js';
import { redactedUrl } from './postgres/pool.js';

async function migrateCommand(options: StateOptions): Promise<void> {
  const { databaseUrl } = configOf(options);
  if (databaseUrl === null) {
    process.stderr.write(
      'db migrate needs a database: --database-url postgres://... or IBANQA_DATABASE_URL\n',
    );
    process.exitCode = 2;
    return;
  }
  const { applied, version } = await migrateDatabase(databaseUrl);
  const what =
    applied.length === 0
      ? 'already up to date'
      : `applied ${applied.map((m) => `${m.version} (${m.name})`).join(', ')}`;
  process.stdout.write(`${redactedUrl(databaseUrl)}: schema version ${version}, ${what}\n`);
}

export function registerDbCommands(program: Command): void {
  const db = program.command('db').description('The shared PostgreSQL state (several nodes)');
  db.command('migrate')
    .description(
      'Apply pending schema migrations (once, under an advisory lock; nodes also do it at start)',
    )
    .option(...databaseUrlOption)
    .action((options: StateOptions) => migrateCommand(options));
}
