/**
 * What the main thread hands every pool worker at start: the settings of its own Config that the
 * workers need, so a worker never reads the environment and always runs with what the main thread
 * validated.
 */
import { workerData } from 'node:worker_threads';
import type { ManifestKeys } from '../domain/manifest/signing.js';
import type { DirectoryFile } from '../registry/routing-directory-loader.js';

export interface WorkerSettings {
  readonly dataDir: string;
  readonly usDirectoryFiles: readonly DirectoryFile[];
  /** A statement analysis's OCR engine is released after this long without an image (Config.poolIdleMs). */
  readonly ocrIdleMs: number;
  /** Manifest signing keys loaded by the main thread (a worker never creates or reads the key ring). */
  readonly manifestKeys?: ManifestKeys;
}

/** The settings of this pool worker; a thread started without them is a bug. */
export function workerSettings(): WorkerSettings {
  const settings = workerData as Partial<WorkerSettings> | undefined;
  if (
    typeof settings?.dataDir !== 'string' ||
    !Array.isArray(settings.usDirectoryFiles) ||
    typeof settings.ocrIdleMs !== 'number'
  ) {
    throw new Error(
      'pool workers need { dataDir, usDirectoryFiles, ocrIdleMs } as workerData (src/pool/pool.ts)',
    );
  }
  return {
    dataDir: settings.dataDir,
    usDirectoryFiles: settings.usDirectoryFiles,
    ocrIdleMs: settings.ocrIdleMs,
    ...(settings.manifestKeys === undefined ? {} : { manifestKeys: settings.manifestKeys }),
  };
}
