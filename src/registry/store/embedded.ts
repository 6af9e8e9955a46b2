/**
 * The embedded default: on first start, offline, the registry is built from the npm packages with clear
 * licences; after an upgrade of those packages, the installed data follows as new snapshots.
 */
import { AppError } from '../../errors.js';
import { embeddedVersions, loadEmbeddedDefault } from '../embedded-default.js';
import type { ParsedSnapshot } from '../record.js';
import type { RegistryStore } from './registry-store.js';
import type { ImportSummary } from './types.js';

/** Where the embedded data comes from: the installed packages (tests hand in their own SYNTHETIC data). */
export interface EmbeddedData {
  /** Installed version per embedded source; cheap (package.json only), read on every start. */
  versions(): Readonly<Record<string, string>>;
  /** Every embedded snapshot in publisher order; read only when something is to be imported. */
  snapshots(): ParsedSnapshot[];
}

export const installedEmbeddedData: EmbeddedData = {
  versions: embeddedVersions,
  snapshots: loadEmbeddedDefault,
};

export interface EmbeddedOutcome {
  readonly imported: readonly ImportSummary[];
  /** Sources whose installed data could not follow (an older package than the one imported): kept as they were. */
  readonly kept: readonly { readonly source_id: string; readonly reason: string }[];
}

/** What the start-up import thread (workers/embedded-import.ts) answers: failures as data. */
export type EmbeddedImportReply =
  | { readonly ok: true; readonly outcome: EmbeddedOutcome }
  | { readonly ok: false; readonly message: string };

/**
 * An empty registry gets every embedded snapshot (bankdata-germany's current set, then the set valid from its
 * "next" date, then iban-to-bic), so the second bankdata-germany snapshot records its changes as events.
 * A registry that already holds an embedded source at another package version gets that source's installed
 * snapshots (and one that lacks an embedded source, after an upgrade that ships a new one, gets it), diffed against what it holds, like any newer publisher file. A downgraded package's snapshots
 * are older than the stored ones and are refused by the import (events only run forward); the stored data stays.
 * Sources an operator imported from publisher files are never touched.
 */
export function ensureEmbeddedDefault(
  store: RegistryStore,
  now: Date = new Date(),
  data: EmbeddedData = installedEmbeddedData,
): EmbeddedOutcome {
  if (store.isEmpty())
    return {
      imported: data
        .snapshots()
        .map((snapshot) => store.import(snapshot, { origin: 'embedded', now })),
      kept: [],
    };
  // A source shipped by a newer release (stored: none) joins; an embedded one at another version follows it.
  const stale = Object.entries(data.versions()).filter(([sourceId, version]) => {
    const stored = store.source(sourceId);
    return stored === undefined || (stored.origin === 'embedded' && stored.version !== version);
  });
  if (stale.length === 0) return { imported: [], kept: [] };
  const staleIds = new Set(stale.map(([sourceId]) => sourceId));
  const imported: ImportSummary[] = [];
  const kept: { source_id: string; reason: string }[] = [];
  for (const snapshot of data
    .snapshots()
    .filter((candidate) => staleIds.has(candidate.source_id))) {
    if (kept.some((entry) => entry.source_id === snapshot.source_id)) continue;
    try {
      imported.push(store.import(snapshot, { origin: 'embedded', now }));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      kept.push({ source_id: snapshot.source_id, reason: error.message });
    }
  }
  return { imported, kept };
}
