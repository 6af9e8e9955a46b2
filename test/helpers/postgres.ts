/**
 * A schema of its own in the machine's PostgreSQL (127.0.0.1:5432, trust auth, database `test`) for one test
 * subject: created with a unique name, reached through a URL whose search_path names it, dropped afterwards.
 * IBANQA_TEST_POSTGRES_URL points the tests at another server or database (as for scratch-database.ts).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const baseUrl = process.env.IBANQA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestSchema {
  readonly name: string;
  /** The database URL with `options=-c search_path=<name>`, as IBANQA_DATABASE_URL takes it. */
  readonly url: string;
  drop(): Promise<void>;
}

async function admin<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

export async function createTestSchema(): Promise<TestSchema> {
  const name = `ibanqa_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE SCHEMA ${name}`));
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${name}`);
  return {
    name,
    url: url.toString(),
    drop: () =>
      admin((client) => client.query(`DROP SCHEMA ${name} CASCADE`)).then(() => undefined),
  };
}

/** One query on a connection of its own, as another node (or an auditor) sees the schema's tables. */
export async function querySchema<T extends pg.QueryResultRow>(
  schema: TestSchema,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: schema.url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
