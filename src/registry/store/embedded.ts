/** First start, offline: the registry is built from the npm packages with clear licences. */
import { loadEmbeddedDefault } from '../embedded-default.js';
import type { RegistryStore } from './registry-store.js';
import type { ImportSummary } from './types.js';

/**
 * Imports the embedded default when the registry holds no source at all. Its snapshots go in publisher
 * order (bankdata-germany's current set, then the set valid from its "next" date, then iban-to-bic), so
 * the second bankdata-germany snapshot records its changes as registry-change events.
 */
export function ensureEmbeddedDefault(store: RegistryStore, now: Date = new Date()): ImportSummary[] {
  if (!store.isEmpty()) return [];
  return loadEmbeddedDefault().map((snapshot) => store.import(snapshot, { origin: 'embedded', now }));
}
