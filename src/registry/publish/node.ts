/**
 * A service node's part in registry publication, for main.ts: at start, the published snapshots it lacks go on
 * top of its embedded default before the registry opens read-only (a node started later builds the same
 * registry); while it runs, a follower applies what other nodes publish. Without a database URL, neither runs.
 */
import type { Logger } from 'pino';
import type { RegistryStore } from '../store/registry-store.js';
import { applyInChild } from './apply-child.js';
import { RegistryFollower } from './follower.js';

export interface PublicationSettings {
  readonly dataDir: string;
  readonly databaseUrl: string | null;
}

/** The start-up catch-up, or undefined without a database. A failure stops the start: the node would serve a registry the others do not. */
export function registryCatchUp(
  settings: PublicationSettings,
  logger: Logger,
): (() => Promise<void>) | undefined {
  const { dataDir, databaseUrl } = settings;
  if (databaseUrl === null) return undefined;
  return async () => {
    const outcome = await applyInChild(dataDir, databaseUrl);
    logger.info(
      { applied: outcome.applied, registry: outcome.registry },
      'registry: on the published chain',
    );
  };
}

export function followRegistry(
  settings: PublicationSettings,
  registry: RegistryStore,
  logger: Logger,
): RegistryFollower | undefined {
  const { dataDir, databaseUrl } = settings;
  if (databaseUrl === null) return undefined;
  return new RegistryFollower({
    databaseUrl,
    localVersion: () => registry.currentVersion(),
    apply: (signal) => applyInChild(dataDir, databaseUrl, signal),
    logger,
  });
}
