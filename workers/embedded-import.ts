/**
 * The start-up import of the embedded default registry (src/registry/load-directory.ts), in a thread of its own:
 * building the registry from the embedded tables allocates far more than the service keeps, and what a thread
 * allocated is returned to the system when the thread ends, where the main thread's allocator would keep it
 * (about 47 MiB of the first start's resident set, bench/RESULTS.md "Memory"). Failures cross back as data.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ensureEmbeddedDefault, type EmbeddedImportReply } from '../src/registry/store/embedded.js';
import { RegistryStore } from '../src/registry/store/registry-store.js';

function reply(message: EmbeddedImportReply): void {
  parentPort?.postMessage(message);
}

const { dataDir } = workerData as { readonly dataDir: string };
const writer = RegistryStore.openWriter(dataDir);
let answer: EmbeddedImportReply;
try {
  answer = { ok: true, outcome: ensureEmbeddedDefault(writer) };
} catch (error) {
  answer = { ok: false, message: error instanceof Error ? error.message : String(error) };
}
// The handle is closed before the answer: the main thread opens the registry the other way once it has it.
writer.close().then(
  () => reply(answer),
  (error: unknown) => reply({ ok: false, message: `registry not closed: ${String(error)}` }),
);
