/**
 * The US routing directory over the LMDB registry: built in memory from the current FedACH and
 * Fedwire snapshots the operator imported with `ibanqa registry import --source fedach|fedwire`, and
 * rebuilt when a new snapshot becomes current. Imports through the handle it reads are seen at once (onChange);
 * an import by another process (the CLI) within limits.caches.staleMsMax, as the bank directory's cache.
 */
import type { RegistryStore } from './store/registry-store.js';
import {
  createRoutingDirectory,
  routingSourceIds,
  type RoutingDirectory,
  type RoutingObservation,
  type RoutingSearchPage,
  type RoutingSnapshotInput,
  type RoutingSource,
  type RoutingSourceId,
  type RoutingTarget,
} from './routing-directory.js';
import { limits } from '../limits.js';

/** Current snapshot id per routing source in the store ('' when absent): the rebuild trigger. */
function snapshotIdsOf(registry: RegistryStore, sources: readonly RoutingSourceId[]): string {
  return sources.map((id) => String(registry.source(id)?.current_snapshot_id ?? '')).join(',');
}

/** The store's current snapshot of one source with its file SHA-256 (content hash when no file is known). */
function storedInput(
  registry: RegistryStore,
  sourceId: RoutingSourceId,
): RoutingSnapshotInput | undefined {
  const source = registry.source(sourceId);
  if (source === undefined) return undefined;
  const snapshot = registry.snapshot(source.current_snapshot_id);
  if (snapshot === undefined) return undefined;
  return {
    snapshot: registry.snapshotAsParsed(snapshot.snapshot_id),
    sha256: snapshot.file_sha256 ?? snapshot.content_sha256,
  };
}

export class RegistryRoutingDirectory implements RoutingDirectory {
  private built: RoutingDirectory;
  private builtFrom: string;
  private checkedAt = Date.now();
  private dirty = false;
  /** Sources read from the store: those not pinned by a file the operator named. */
  private readonly storeSources: readonly RoutingSourceId[];

  /** `pinned`: snapshots from IBANQA_US_DIRECTORY_FILES; they win over the store for their source. */
  constructor(
    private readonly registry: RegistryStore,
    private readonly pinned: readonly RoutingSnapshotInput[] = [],
  ) {
    const pinnedIds = new Set(pinned.map((input) => input.snapshot.source_id));
    this.storeSources = routingSourceIds.filter((id) => !pinnedIds.has(id));
    this.builtFrom = snapshotIdsOf(registry, this.storeSources);
    this.built = this.build();
    registry.onChange(() => {
      this.dirty = true;
    });
  }

  sources(): readonly RoutingSource[] {
    return this.current().sources();
  }

  byRoutingNumber(routingNumber: string): readonly RoutingObservation[] {
    return this.current().byRoutingNumber(routingNumber);
  }

  search(q: string, limit: number, offset: number): RoutingSearchPage {
    return this.current().search(q, limit, offset);
  }

  targetById(targetId: string): RoutingTarget | undefined {
    return this.current().targetById(targetId);
  }

  private build(): RoutingDirectory {
    const stored = this.storeSources.flatMap((id) => storedInput(this.registry, id) ?? []);
    return createRoutingDirectory([...this.pinned, ...stored]);
  }

  private current(): RoutingDirectory {
    const now = Date.now();
    if (!this.dirty && now - this.checkedAt < limits.caches.staleMsMax) return this.built;
    this.dirty = false;
    this.checkedAt = now;
    const ids = snapshotIdsOf(this.registry, this.storeSources);
    if (ids !== this.builtFrom) {
      this.builtFrom = ids;
      this.built = this.build();
    }
    return this.built;
  }
}
