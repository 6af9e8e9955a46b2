/** What the main thread hands a REST front thread at start (worker data): plain data only. */
import { workerData } from 'node:worker_threads';
import type { ManifestKeys } from '../../../domain/manifest/signing.js';
import type { DirectoryFile } from '../../../registry/routing-directory-loader.js';
import type { BodyFormat } from '../../../render/body.js';
import type { PoolTask } from '../../../pool/task.js';

/** The settings of Config (src/config.ts) every REST front applies: proxies, CORS, status recording. */
export interface FrontSettings {
  readonly trustedProxies: string;
  readonly trustEveryProxy: boolean;
  readonly corsOrigins: string | undefined;
  /**
   * IBANQA_OBSERVED_STATUSES_DIR: a directory where every front records each (operation, status, error code)
   * it answers, once per process and thread (transport/observed-statuses.ts); unset: nothing is recorded.
   * The test helpers set it so a check can compare what the service sent with its OpenAPI document.
   */
  readonly observedStatusesDir: string | undefined;
}

export interface FrontThreadSettings {
  /** The module the bootstrap requires (workers/front.ts, or .js when compiled). */
  readonly entry: string;
  /** Names the thread in /metrics and logs: front-1, front-2, ... */
  readonly thread: string;
  readonly host: string;
  /** The port the main thread's app listens on: every front listens on the same one (SO_REUSEPORT). */
  readonly port: number;
  readonly dataDir: string;
  readonly usDirectoryFiles: readonly DirectoryFile[];
  readonly poolThresholdRows: number;
  readonly manifestKeys: ManifestKeys | null;
  readonly front: FrontSettings;
  readonly logLevel: string;
}

export function frontThreadSettings(): FrontThreadSettings {
  const settings = workerData as Partial<FrontThreadSettings> | undefined;
  if (typeof settings?.dataDir !== 'string' || typeof settings.port !== 'number') {
    throw new Error(
      'a REST front thread needs its settings as workerData (src/transport/http/threads/fronts.ts)',
    );
  }
  return settings as FrontThreadSettings;
}

/** A pool run a front thread hands to the main thread's pool: the op by name. */
export type WirePoolTask = Omit<PoolTask, 'op'> & { readonly op: string };

export type WirePoolResult =
  | { readonly value: unknown }
  | { readonly rendered: { readonly format: BodyFormat; readonly body: string | Uint8Array } };
