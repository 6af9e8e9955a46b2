/**
 * Brings a node's registry up to the published chain: every publication after its version, in order, each only
 * onto the registry it was made on (same version and fingerprint), each checked to end where the publisher ended.
 * Runs through the importer's writer handle (`ibanqa registry import`, or the child process a service starts:
 * apply-process.ts), never in the service, which holds the registry read-only.
 */
import type { ClientBase } from 'pg';
import { AppError } from '../../errors.js';
import type { RegistryStore } from '../store/registry-store.js';
import type { RegistryIdentity } from '../store/types.js';
import { decodePublication, importOptionsOf } from './payload.js';
import { headAt, headsAfter, payloadAt, type PublicationHead } from './publications.js';

export interface ApplyOutcome {
  /** Versions this call imported (none when the registry was already current). */
  readonly applied: readonly number[];
  readonly registry: RegistryIdentity;
}

export async function applyPublications(
  store: RegistryStore,
  client: ClientBase,
): Promise<ApplyOutcome> {
  await assertOnChain(store, client);
  const applied: number[] = [];
  for (const head of await headsAfter(client, store.currentVersion())) {
    if (await applyOne(store, client, head)) applied.push(head.version);
  }
  return { applied, registry: store.currentIdentity() };
}

/** A registry at a published version must hold what was published there (else it took imports of its own). */
async function assertOnChain(store: RegistryStore, client: ClientBase): Promise<void> {
  const local = store.currentIdentity();
  const head = await headAt(client, local.version);
  if (head !== undefined && head.fingerprint !== local.fingerprint)
    throw diverged(local, { version: head.version, fingerprint: head.fingerprint });
}

async function applyOne(
  store: RegistryStore,
  client: ClientBase,
  head: PublicationHead,
): Promise<boolean> {
  const local = store.currentIdentity();
  // Another process of this node (the CLI, or an earlier apply) got there first.
  if (local.version === head.version && local.fingerprint !== head.fingerprint)
    throw diverged(local, head);
  if (local.version >= head.version) return false;
  if (local.version !== head.base_version || local.fingerprint !== head.base_fingerprint)
    throw diverged(local, { version: head.base_version, fingerprint: head.base_fingerprint });
  const published = decodePublication(await payloadAt(client, head.version));
  let summary;
  try {
    summary = store.import(published.parsed, importOptionsOf(published, head.base_version));
  } catch (error) {
    // The registry moved while the payload was read: look again from where it is now.
    if (error instanceof AppError && error.code === 'conflict')
      return applyOne(store, client, head);
    throw error;
  }
  const made = summary.registry;
  if (made.version !== head.version || made.fingerprint !== head.fingerprint)
    throw new AppError(
      'internal',
      `registry publication ${head.version} built version ${made.version}, fingerprint ${made.fingerprint} here, not fingerprint ${head.fingerprint} as on the node that published it`,
    );
  return true;
}

function diverged(
  local: RegistryIdentity,
  published: { version: number; fingerprint: string },
): AppError {
  return new AppError(
    'conflict',
    `this node's registry (version ${local.version}, fingerprint ${local.fingerprint}) is not the published one ` +
      `(version ${published.version}, fingerprint ${published.fingerprint}): it took imports of its own, or runs ` +
      `another release's embedded data. Stop the node, remove <data-dir>/registry and start it again: it builds ` +
      `the registry from the embedded default and the published snapshots`,
  );
}
