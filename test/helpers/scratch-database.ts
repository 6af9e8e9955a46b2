/**
 * A PostgreSQL database of its own for one test, on the machine's server (127.0.0.1:5432, trust auth; override
 * with IBANQA_TEST_POSTGRES_URL): created under a unique name, dropped (with any connection still open) after.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const adminUrl = process.env.IBANQA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface ScratchDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

async function asAdmin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(purpose: string): Promise<ScratchDatabase> {
  const name = `ibanqa_${purpose}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await asAdmin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
