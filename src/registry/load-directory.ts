import { isMainThread } from 'node:worker_threads';
import { countryFormats } from '../domain/iban/countries.js';
import { workerSettings } from '../pool/worker-data.js';
import type { BankDirectory } from './bank-directory.js';
import { LazyLmdbDirectory, LmdbDirectory } from './lmdb-directory.js';
import { ensureEmbeddedDefault, type EmbeddedOutcome } from './store/embedded.js';
import { RegistryStore } from './store/registry-store.js';

/**
 * The bank directory the IBAN operations read: the LMDB registry under `<dataDir>/registry`.
 * The main thread opens it read-write and, when it holds no source yet (first start, offline), builds it
 * from the embedded default (bankdata-germany and iban-to-bic, recorded as sources with their licence,
 * version and date), and after an upgrade of those packages gives them the installed data as new snapshots
 * (`report` hears what was imported or kept). Pool workers open it read-only; their dataDir comes from the pool's workerData.
 */
export function loadBankDirectory(dataDir?: string, report: (outcome: EmbeddedOutcome) => void = () => undefined): BankDirectory {
  const dir = dataDir ?? workerSettings().dataDir;
  if (!isMainThread) return new LazyLmdbDirectory(() => new LmdbDirectory(RegistryStore.open(dir, { readOnly: true })));
  const store = RegistryStore.open(dir);
  report(ensureEmbeddedDefault(store));
  const directory = new LmdbDirectory(store);
  // Pool workers stay lazy: a worker builds a country's maps only if its tasks need them.
  directory.preload(countryFormats.map((format) => format.code));
  return directory;
}
