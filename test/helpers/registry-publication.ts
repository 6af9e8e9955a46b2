/**
 * Registry publication through PostgreSQL as a client sees it: an import through the CLI against a node's data
 * directory and the shared database, what a node's /readyz says it serves, and a lookup of the LEI the imported
 * file changes (OeNB SEPA directory 2025-09-22, read from ../shared).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { repoRoot } from '../../bench/lib/child.js';
import type { ServiceProcess } from './service-process.js';
import { sharedPath } from './shared.js';

const run = promisify(execFile);
export const oenbFile = sharedPath('oenb-sepa-verzeichnis/2025-09-22/at.csv');
/** Registry sources README, OeNB 15.09 -> 22.09.2025: BLZ 36316's LEI after the Raiffeisen merger. */
export const mergedLei = '5299007ST2V666DOLE22';
/** Records in that file: its 877 lines less three lines of notice, a blank line, a title and the header. */
export const oenbRows = 871;
/** What the task promises: a publication is served by every node within 10 s. */
export const convergeMs = 10_000;

export interface Ready {
  readonly status: string;
  readonly registry: { readonly version: number; readonly fingerprint: string };
}

export interface ImportSummary {
  readonly row_count: number;
  readonly registry: { readonly version: number; readonly fingerprint: string };
}

export async function readyz(node: ServiceProcess): Promise<Ready> {
  const response = await fetch(node.base.replace('/api/v1', '/readyz'));
  return (await response.json()) as Ready;
}

/** POST /bank-intelligence/lookup of mergedLei on a node; the 200 body. */
export async function lookupLei(node: ServiceProcess, key: string): Promise<any> {
  const response = await fetch(`${node.base}/bank-intelligence/lookup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ value: mergedLei, type: 'lei' }),
  });
  assert.equal(response.status, 200);
  return response.json();
}

/** Polls a node's /readyz until it serves `version` (or a later one) or the deadline passes; the last answer. */
export async function waitForVersion(
  node: ServiceProcess,
  version: number,
  deadline: number,
): Promise<Ready> {
  for (;;) {
    const ready = await readyz(node);
    if (ready.registry.version >= version || Date.now() > deadline) return ready;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `ibanqa registry import --source oenb-sepa` of oenbFile against a node's data dir and the database. */
export async function importThroughCli(
  node: ServiceProcess,
  databaseUrl: string,
): Promise<ImportSummary> {
  const { stdout } = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli.ts',
      'registry',
      'import',
      '--source',
      'oenb-sepa',
      '--file',
      oenbFile,
      '--data-dir',
      node.dataDir,
      '--database-url',
      databaseUrl,
      '--json',
    ],
    { cwd: repoRoot },
  );
  return JSON.parse(stdout) as ImportSummary;
}

/** That a node answers as the published registry: ready, same version and fingerprint, the merged LEI found. */
export async function assertServes(
  node: ServiceProcess,
  key: string,
  published: ImportSummary,
): Promise<void> {
  const ready = await readyz(node);
  assert.deepEqual(
    {
      status: ready.status,
      version: ready.registry.version,
      fingerprint: ready.registry.fingerprint,
    },
    {
      status: 'ready',
      version: published.registry.version,
      fingerprint: published.registry.fingerprint,
    },
  );
  const lookup = await lookupLei(node, key);
  assert.equal(lookup.registry.fingerprint, published.registry.fingerprint);
  const found = lookup.results[0];
  assert.equal(found.match_status, 'matched');
  assert.ok(
    found.matches.some((m: any) => m.source_id === 'oenb-sepa' && m.record_key === '36316'),
  );
}
