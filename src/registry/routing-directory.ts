/**
 * US routing directory: what the /us/routing operations may know about real ABA routing numbers, as a
 * read-only port. It is fed only by Federal Reserve E-Payments Routing Directory files (FedACH, Fedwire)
 * the operator imports; the project ships no Fed data (the Fed's terms forbid redistribution).
 *
 * Every target keeps the file it came from: source_id, the file's SHA-256 and the publisher's date. A
 * quote names the SHA-256 it was priced against, so a run can tell that the directory changed since.
 */
import { createHash } from 'node:crypto';
import { assert } from '../assert.js';
import { foldText } from './bank-directory.js';
import type { ParsedSnapshot, RegistryRecord } from './record.js';

export type RoutingSourceId = 'fedach' | 'fedwire';
export const routingSourceIds: readonly RoutingSourceId[] = ['fedach', 'fedwire'];

export interface RoutingSource {
  readonly source_id: RoutingSourceId;
  /** The publisher's date for the data (latest change date in the file unless the importer was told). */
  readonly snapshot_date: string | null;
  /** SHA-256 (hex) of the imported file's bytes. */
  readonly source_sha256: string;
}

/** One routing number as one source publishes it. name/city/state/status are the published text. */
export interface RoutingTarget {
  readonly target_id: string;
  readonly routing_number: string;
  readonly name: string | null;
  readonly city: string | null;
  readonly state: string | null;
  /**
   * As published: FedACH Institution Status Code (position 149); Fedwire funds-transfer eligibility
   * (position 91, Y/N). The two files have no common status field, so neither is translated.
   */
  readonly status: string | null;
  readonly source_id: RoutingSourceId;
  readonly source_sha256: string;
  readonly source_date: string | null;
}

/** What a lookup reports per source: the same facts as a target. */
export type RoutingObservation = RoutingTarget;

export interface RoutingSearchPage {
  readonly results: readonly RoutingTarget[];
  readonly total: number;
}

export interface RoutingDirectory {
  /** Loaded sources; empty when no directory was imported (lookups then say 'not_loaded'). */
  sources(): readonly RoutingSource[];
  /** Every source's record of this routing number, in source order (fedach, fedwire). */
  byRoutingNumber(routingNumber: string): readonly RoutingObservation[];
  /** Targets whose routing number starts with q, or whose name, city or state contains q (folded). */
  search(q: string, limit: number, offset: number): RoutingSearchPage;
  targetById(targetId: string): RoutingTarget | undefined;
}

/** A parsed FedACH/Fedwire snapshot and the SHA-256 of the file it was parsed from. */
export interface RoutingSnapshotInput {
  readonly snapshot: ParsedSnapshot;
  readonly sha256: string;
}

const targetIdHexChars = 16; // 64 bits: unique across any number of directory files an operator could load

/** Stable id: the same source, routing number and file always give the same id; a new file, a new id. */
export function routingTargetId(
  sourceId: string,
  routingNumber: string,
  sourceSha256: string,
): string {
  const digest = createHash('sha256')
    .update(`${sourceId}\u0000${routingNumber}\u0000${sourceSha256}`)
    .digest('hex');
  return `rt_${digest.slice(0, targetIdHexChars)}`;
}

/** Published status field per source (see RoutingTarget.status). */
const statusFieldOf: Readonly<Record<RoutingSourceId, string>> = {
  fedach: 'institutionStatusCode',
  fedwire: 'fundsEligibility',
};

function published(record: RegistryRecord, field: string): string | null {
  const value = record.fields[field];
  return value === undefined || value === '' ? null : value;
}

function targetOf(record: RegistryRecord, source: RoutingSource): RoutingTarget {
  const routingNumber = record.record_key;
  return Object.freeze({
    target_id: routingTargetId(source.source_id, routingNumber, source.source_sha256),
    routing_number: routingNumber,
    name: published(record, 'customerName'),
    city: published(record, 'customerCity'),
    state: published(record, 'customerState'),
    status: published(record, statusFieldOf[source.source_id]),
    source_id: source.source_id,
    source_sha256: source.source_sha256,
    source_date: source.snapshot_date,
  });
}

function isRoutingSourceId(text: string): text is RoutingSourceId {
  return (routingSourceIds as readonly string[]).includes(text);
}

function sourceOf(input: RoutingSnapshotInput): RoutingSource {
  const id = input.snapshot.source_id;
  assert(isRoutingSourceId(id), `not a US routing directory source: ${id}`);
  assert(/^[0-9a-f]{64}$/.test(input.sha256), 'source_sha256 is 64 lower-case hex digits');
  return {
    source_id: id,
    snapshot_date: input.snapshot.snapshot_date,
    source_sha256: input.sha256,
  };
}

interface Indexed {
  readonly target: RoutingTarget;
  /** Folded "name city state" for search. */
  readonly haystack: string;
}

class MemoryRoutingDirectory implements RoutingDirectory {
  private readonly byNumber = new Map<string, RoutingTarget[]>();
  private readonly byId = new Map<string, RoutingTarget>();
  /** Sorted by routing number, then source order: the order of search results. */
  private readonly ordered: readonly Indexed[];

  constructor(
    private readonly loaded: readonly RoutingSource[],
    targets: readonly RoutingTarget[],
  ) {
    const sourceRank = (id: RoutingSourceId) => routingSourceIds.indexOf(id);
    const sorted = [...targets].sort((a, b) =>
      a.routing_number < b.routing_number
        ? -1
        : a.routing_number > b.routing_number
          ? 1
          : sourceRank(a.source_id) - sourceRank(b.source_id),
    );
    for (const target of sorted) {
      const list = this.byNumber.get(target.routing_number);
      if (list === undefined) this.byNumber.set(target.routing_number, [target]);
      else list.push(target);
      this.byId.set(target.target_id, target);
    }
    this.ordered = sorted.map((target) => ({
      target,
      haystack: foldText(`${target.name ?? ''} ${target.city ?? ''} ${target.state ?? ''}`),
    }));
  }

  sources(): readonly RoutingSource[] {
    return this.loaded;
  }

  byRoutingNumber(routingNumber: string): readonly RoutingObservation[] {
    return this.byNumber.get(routingNumber) ?? [];
  }

  search(q: string, limit: number, offset: number): RoutingSearchPage {
    const digits = q.trim();
    const folded = foldText(q);
    const matches = (entry: Indexed) =>
      folded === '' ||
      entry.target.routing_number.startsWith(digits) ||
      entry.haystack.includes(folded);
    const results: RoutingTarget[] = [];
    let total = 0;
    for (const entry of this.ordered) {
      if (!matches(entry)) continue;
      if (total >= offset && results.length < limit) results.push(entry.target);
      total++;
    }
    return { results, total };
  }

  targetById(targetId: string): RoutingTarget | undefined {
    return this.byId.get(targetId);
  }
}

/**
 * Builds the directory from FedACH/Fedwire snapshots. One snapshot per source: a second file of the
 * same source would make "the current sha256 of a target" ambiguous, so it is refused.
 */
export function createRoutingDirectory(inputs: readonly RoutingSnapshotInput[]): RoutingDirectory {
  const sources = inputs.map(sourceOf);
  assert(
    new Set(sources.map((source) => source.source_id)).size === sources.length,
    'one snapshot per routing source',
  );
  const targets: RoutingTarget[] = [];
  inputs.forEach((input, index) => {
    const source = sources[index] as RoutingSource;
    for (const record of input.snapshot.records) {
      if (record.record_type === 'routing_number') targets.push(targetOf(record, source));
    }
  });
  const ordered = [...sources].sort(
    (a, b) => routingSourceIds.indexOf(a.source_id) - routingSourceIds.indexOf(b.source_id),
  );
  return new MemoryRoutingDirectory(Object.freeze(ordered), targets);
}

/** No directory imported: no targets, every lookup 'not_loaded'. */
export const emptyRoutingDirectory: RoutingDirectory = createRoutingDirectory([]);
