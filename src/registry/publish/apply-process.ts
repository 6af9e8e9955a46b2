/**
 * The process a service starts to apply published registry snapshots to its data directory: the service holds the
 * registry read-only, and lmdb-js lets one process hold an environment one way only, so the writer lives here, as
 * `ibanqa registry import` beside a running service does. Argument: the data directory; IBANQA_DATABASE_URL names
 * the database (not an argument, so it does not show in the process list). Prints the ApplyOutcome as one JSON
 * line; a failure is one line on stderr and exit code 1. The service migrated the database before it starts this.
 */
import pg from 'pg';
import { RegistryStore } from '../store/registry-store.js';
import { applyPublications, type ApplyOutcome } from './apply.js';

async function applyTo(dataDir: string, databaseUrl: string): Promise<ApplyOutcome> {
  const store = RegistryStore.openWriter(dataDir);
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    return await applyPublications(store, client);
  } finally {
    await client.end().catch(() => undefined);
    await store.close();
  }
}

const dataDir = process.argv[2];
const databaseUrl = process.env.IBANQA_DATABASE_URL;
if (dataDir === undefined || databaseUrl === undefined || databaseUrl === '') {
  process.stderr.write('usage: IBANQA_DATABASE_URL=postgres://... apply-process <data-dir>\n');
  process.exitCode = 1;
} else {
  applyTo(dataDir, databaseUrl).then(
    (outcome) => process.stdout.write(`${JSON.stringify(outcome)}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
