/**
 * Imports into the registry of a running test service the way an operator does beside a running service: in a
 * process of its own, through the importer's writer handle. The service holds the registry read-only, and one
 * process cannot hold an LMDB environment both ways (lmdb-js shares one native environment per file, with the
 * first opener's flags). The service sees the import on its next request (it reads the registry version).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import type { ParsedSnapshot } from '../../src/registry/record.js';
import type { FileImport } from '../../src/registry/store/import-file.js';
import type { ImportOptions } from '../../src/registry/store/import-snapshot.js';
import type { ImportSummary } from '../../src/registry/store/types.js';

/** One import: a publisher file as `ibanqa registry import` reads it, or an already parsed (SYNTHETIC) snapshot. */
export type RegistryImport =
  | { readonly file: Omit<FileImport, 'onProgress'> }
  | { readonly snapshot: ParsedSnapshot; readonly options?: Omit<ImportOptions, 'onProgress'> };

export interface ImportRequest {
  readonly dataDir: string;
  readonly imports: readonly RegistryImport[];
}

const child = fileURLToPath(new URL('./registry-import-child.ts', import.meta.url));

/** Runs `imports` in order in one child process; resolves with their summaries once it has committed and exited. */
export function importIntoRegistry(
  dataDir: string,
  imports: readonly RegistryImport[],
): Promise<ImportSummary[]> {
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, ['--import', 'tsx', child], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    process_.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    process_.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    process_.on('error', reject);
    process_.on('close', (code) => {
      if (code !== 0)
        reject(
          new Error(`registry import exited with ${code}: ${Buffer.concat(err).toString('utf8')}`),
        );
      else resolve(deserialize(Buffer.concat(out)) as ImportSummary[]);
    });
    process_.stdin.end(serialize({ dataDir, imports } satisfies ImportRequest));
  });
}
