import { countryFormats } from '../domain/iban/countries.js';
import { workerSettings } from '../pool/worker-data.js';
import type { BankDirectory } from './bank-directory.js';
import { LazyLmdbDirectory, LmdbDirectory } from './lmdb-directory.js';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EmbeddedImportReply, EmbeddedOutcome } from './store/embedded.js';
import { RegistryStore } from './store/registry-store.js';

/**
 * Start-up of the main thread: the LMDB registry under `<dataDir>/registry` as the service holds it, read-only.
 * First the importer's own handle builds it from the embedded default when it holds no source yet (first start,
 * offline: bankdata-germany and iban-to-bic, recorded as sources with their licence, version and date), or gives
 * upgraded packages' data as new snapshots (`report` hears what was imported or kept); that handle is closed
 * before the read-only one opens, as one process holds a registry one way at a time.
 */
export async function openServiceRegistry(
  dataDir: string,
  report: (outcome: EmbeddedOutcome) => void = () => undefined,
  catchUp: () => Promise<void> = () => Promise.resolve(),
): Promise<RegistryStore> {
  report(await importEmbeddedInThread(dataDir));
  // Imports published by other nodes go on top of the embedded default, before anything reads the registry.
  await catchUp();
  return RegistryStore.openReader(dataDir);
}

const workerExtension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const bootstrap = new URL('../../workers/thread-bootstrap.mjs', import.meta.url);
const importEntry = new URL(`../../workers/embedded-import${workerExtension}`, import.meta.url);

/** ensureEmbeddedDefault in a thread that ends with it (workers/embedded-import.ts says why); settles on its exit. */
function importEmbeddedInThread(dataDir: string): Promise<EmbeddedOutcome> {
  const worker = new Worker(bootstrap, {
    workerData: { entry: fileURLToPath(importEntry), dataDir },
  });
  return new Promise((resolve, reject) => {
    let answer: EmbeddedImportReply | undefined;
    worker.once('message', (message: EmbeddedImportReply) => (answer = message));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (answer?.ok === true) resolve(answer.outcome);
      else
        reject(
          new Error(
            answer === undefined
              ? `the embedded registry import thread exited with code ${code} before answering`
              : `embedded registry import failed: ${answer.message}`,
          ),
        );
    });
  });
}

/** The main thread's bank directory over the service's registry handle, its countries loaded before the service listens. */
export function bankDirectoryOver(registry: RegistryStore): BankDirectory {
  const directory = new LmdbDirectory(registry);
  // Pool workers stay lazy: a worker builds a country's maps only if its tasks need them.
  directory.preload(countryFormats.map((format) => format.code));
  return directory;
}

/**
 * The service's start: the registry (openServiceRegistry) and the bank directory with every country loaded, as
 * bankDirectoryOver, with one difference in memory. Loading reads every bank record once, which maps most of the
 * registry file into this process (about 95 MB of the embedded default's 95 MB file) and keeps it counted in the
 * resident set although nothing reads those pages again: the maps hold what requests need. So the countries are
 * loaded through a handle of their own, which is closed (the environment is unmapped: no other thread holds it
 * yet, pool threads start on demand) before the service's handle opens; the directory keeps the maps.
 */
export async function openServiceData(
  dataDir: string,
  report: (outcome: EmbeddedOutcome) => void = () => undefined,
  catchUp?: () => Promise<void>,
): Promise<{ registry: RegistryStore; bank: BankDirectory }> {
  const loading = await openServiceRegistry(dataDir, report, catchUp);
  let loaded: LmdbDirectory;
  try {
    loaded = new LmdbDirectory(loading);
    loaded.preload(countryFormats.map((format) => format.code));
  } finally {
    await loading.close();
  }
  const registry = RegistryStore.openReader(dataDir);
  return { registry, bank: LmdbDirectory.continuing(registry, loaded) };
}

/** A pool worker's bank directory: the registry read-only, opened on the first question; dataDir from the pool's workerData. */
export function loadBankDirectory(dataDir: string = workerSettings().dataDir): BankDirectory {
  return new LazyLmdbDirectory(() => new LmdbDirectory(RegistryStore.openReader(dataDir)));
}
