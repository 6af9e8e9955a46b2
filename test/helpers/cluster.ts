/**
 * Several real service processes (src/main.ts) sharing one scratch PostgreSQL database, each with its own ports
 * and data directory, all started from the same embedded registry (built once, copied). The credit ledger is read
 * with plain SQL on a connection of its own, never through the service's ledger code.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { repoRoot } from '../../bench/lib/child.js';
import type { CreditKind, PlanId } from '../../src/domain/plans/plans.js';
import { seedEmbeddedRegistry } from './registry-template.js';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database.js';
import { startServiceProcess, type ServiceProcess } from './service-process.js';

export interface Cluster {
  readonly database: ScratchDatabase;
  readonly nodes: readonly ServiceProcess[];
  /** The demo keys of the database, one per plan, printed by exactly one node: the first start of it. */
  readonly keys: Readonly<Record<PlanId, string>>;
  /** Every node stopped, its data dir removed, the database dropped. */
  dispose(): Promise<void>;
}

/** Demo keys as the service prints them at the first start of a store: `  <plan>  iq_...`. */
function printedKeys(nodes: readonly ServiceProcess[]): Record<PlanId, string> {
  const printing = nodes.filter((node) => /^\s+unlimited\s+iq_/m.test(node.child.stdout()));
  if (printing.length !== 1)
    throw new Error(
      `${printing.length} nodes printed demo keys; one start of a database creates them`,
    );
  const out = (printing[0] as ServiceProcess).child.stdout();
  return Object.fromEntries(
    [...out.matchAll(/^\s+([a-z0-9]+)\s+(iq_\S+)/gm)].map((m) => [m[1], m[2]]),
  ) as Record<PlanId, string>;
}

export async function startCluster(
  purpose: string,
  count: number,
  env: NodeJS.ProcessEnv = {},
): Promise<Cluster> {
  const database = await createScratchDatabase(purpose);
  const seed = mkdtempSync(join(tmpdir(), 'ibanqa-cluster-seed-'));
  const nodes: ServiceProcess[] = [];
  const dispose = async () => {
    await Promise.all(nodes.map((node) => node.dispose()));
    rmSync(seed, { recursive: true, force: true });
    await database.drop();
  };
  try {
    await seedEmbeddedRegistry(seed);
    const started = await Promise.allSettled(
      Array.from({ length: count }, () =>
        startServiceProcess({ IBANQA_DATABASE_URL: database.url, ...env }, seed, {
          demoKeys: false,
        }),
      ),
    );
    for (const result of started) if (result.status === 'fulfilled') nodes.push(result.value);
    const failed = started.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
    return { database, nodes, keys: printedKeys(nodes), dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** The account id of a raw key, computed here: `key_` + the first 12 hex digits of its SHA-256. */
export function accountIdOf(rawKey: string): string {
  return `key_${createHash('sha256').update(rawKey).digest('hex').slice(0, 12)}`;
}

export interface LedgerReading {
  readonly used: number;
  readonly reserved: number;
}

/** A key's committed and held credits of one kind over all its periods, read from credit_usage with plain SQL. */
export async function ledgerOf(
  database: ScratchDatabase,
  rawKey: string,
  kind: CreditKind,
): Promise<LedgerReading> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ used: string | null; reserved: string | null }>(
      `SELECT sum(used_${kind}) AS used, sum(reserved_${kind}) AS reserved FROM credit_usage WHERE account_id = $1`,
      [accountIdOf(rawKey)],
    );
    return { used: Number(rows[0]?.used ?? 0), reserved: Number(rows[0]?.reserved ?? 0) };
  } finally {
    await client.end();
  }
}

const run = promisify(execFile);

/** A key made by the CLI in the shared database (`keys create --database-url`), as an operator makes one. */
export async function createKeyThroughCli(databaseUrl: string, plan: PlanId): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli.ts',
      'keys',
      'create',
      '--plan',
      plan,
      '--json',
      '--database-url',
      databaseUrl,
    ],
    { cwd: repoRoot },
  );
  return (JSON.parse(stdout) as { key: string }).key;
}
