/**
 * Where the running service gets its US routing directory:
 * 1. the LMDB registry: the current FedACH/Fedwire snapshots imported with
 *    `ibanqa registry import --source fedach|fedwire --file ...` (see routing-directory-store.ts);
 * 2. files named in IBANQA_US_DIRECTORY_FILES, which win over the registry for their source:
 *      IBANQA_US_DIRECTORY_FILES="fedach:/data/FedACHdir.txt,fedwire:/data/fpddir.txt"
 * Neither: no directory (synthetic mode works; lookups say 'not_loaded'). The project ships no Fed data.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseFedach } from './importers/fedach.js';
import { parseFedwire } from './importers/fedwire.js';
import type { ParsedSnapshot } from './record.js';
import { RegistryRoutingDirectory } from './routing-directory-store.js';
import type { RegistryStore } from './store/registry-store.js';
import {
  createRoutingDirectory,
  emptyRoutingDirectory,
  routingSourceIds,
  type RoutingDirectory,
  type RoutingSnapshotInput,
  type RoutingSourceId,
} from './routing-directory.js';

export const usDirectoryFilesEnv = 'IBANQA_US_DIRECTORY_FILES';

export interface DirectoryFile {
  readonly source: RoutingSourceId;
  readonly path: string;
}

const parsers: Readonly<Record<RoutingSourceId, (bytes: Uint8Array) => ParsedSnapshot>> = {
  fedach: (bytes) => parseFedach(bytes),
  fedwire: (bytes) => parseFedwire(bytes),
};

/** "fedach:<path>,fedwire:<path>" -> entries; a clear RangeError for anything else (startup fails loudly). */
export function parseDirectoryFilesSetting(text: string): DirectoryFile[] {
  const entries = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const files = entries.map((entry) => {
    const colon = entry.indexOf(':');
    const source = colon < 0 ? '' : entry.slice(0, colon);
    const path = colon < 0 ? '' : entry.slice(colon + 1);
    if (!(routingSourceIds as readonly string[]).includes(source) || path === '') {
      throw new RangeError(
        `${usDirectoryFilesEnv}: expected "fedach:<path>" or "fedwire:<path>", got ${JSON.stringify(entry)}`,
      );
    }
    return { source: source as RoutingSourceId, path };
  });
  if (new Set(files.map((file) => file.source)).size !== files.length) {
    throw new RangeError(`${usDirectoryFilesEnv}: at most one file per source`);
  }
  return files;
}

/** Reads, hashes and parses one directory file (the hash is of the exact bytes parsed). */
export function readDirectoryFile(file: DirectoryFile): RoutingSnapshotInput {
  const bytes = readFileSync(file.path);
  return {
    snapshot: parsers[file.source](bytes),
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

export function loadRoutingDirectoryFromFiles(files: readonly DirectoryFile[]): RoutingDirectory {
  return files.length === 0
    ? emptyRoutingDirectory
    : createRoutingDirectory(files.map(readDirectoryFile));
}

/** The service's directory: the registry (when given) plus the pinned files of Config.usDirectoryFiles. */
export function loadRoutingDirectory(
  files: readonly DirectoryFile[],
  registry?: RegistryStore,
): RoutingDirectory {
  if (registry === undefined) return loadRoutingDirectoryFromFiles(files);
  return new RegistryRoutingDirectory(registry, files.map(readDirectoryFile));
}

/** Builds the directory on first use (pool workers: only those that ever run a US routing op pay for it). */
export function lazyRoutingDirectory(load: () => RoutingDirectory): RoutingDirectory {
  let loaded: RoutingDirectory | undefined;
  const get = () => (loaded ??= load());
  return {
    sources: () => get().sources(),
    byRoutingNumber: (routingNumber) => get().byRoutingNumber(routingNumber),
    search: (q, limit, offset) => get().search(q, limit, offset),
    targetById: (targetId) => get().targetById(targetId),
  };
}
