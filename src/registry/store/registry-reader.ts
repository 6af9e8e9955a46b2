import type { RegistryStore } from './registry-store.js';

/**
 * What operations may do with the registry: read it. Importing is the CLI's and the start-up's business
 * (src/registry/store/import-file.ts, embedded.ts); nothing an op holds can write.
 */
export type RegistryReader = Pick<
  RegistryStore,
  | 'identity'
  | 'currentVersion'
  | 'isEmpty'
  | 'sources'
  | 'source'
  | 'snapshot'
  | 'snapshotsOf'
  | 'record'
  | 'recordId'
  | 'recordName'
  | 'snapshotRecord'
  | 'snapshotAsParsed'
  | 'events'
  | 'eventsOfRecord'
  | 'idsOf'
  | 'idsAt'
  | 'countWithPrefix'
  | 'idsWithPrefix'
>;
