/**
 * What an operation may use besides its input. Each op names the capabilities it needs (Op.needs); the
 * service builds a context holding exactly those (src/service/context.ts), so the type system refuses an
 * op that reaches for anything else, and a thread that lacks one fails loudly instead of guessing.
 */
import type { RequestKey } from '../domain/rng.js';
import type { BankDirectory } from '../registry/bank-directory.js';
import type { RegistryIndex } from '../registry/registry-index.js';
import type { RegistryReader } from '../registry/store/registry-reader.js';
import type { RoutingDirectory } from '../registry/routing-directory.js';
import type { WatchStore } from '../ports/watches.js';
import type { UsageReader } from '../ports/usage.js';
import type { CallerView } from './caller.js';
import type { ManifestKeys } from '../domain/manifest/signing.js';
import type { StatementFileKind } from '../domain/statements/file-type.js';

export interface Capabilities {
  /** Per request: the key every random draw derives from (the seed's, or fresh bytes when unseeded). Ops that
   *  draw nothing do not declare it, and the service then computes none. */
  readonly requestKey: RequestKey;
  /** Banks by country and bank code: what validation and generation read. Read-only. */
  readonly bank: BankDirectory;
  /** The US routing directory (FedACH/Fedwire snapshots or operator files). Read-only. */
  readonly routing: RoutingDirectory;
  /** The registry's sources, snapshots, records and change events. Read-only. */
  readonly registry: RegistryReader;
  /** Search, identifier lookup and record keys over the registry's indexes. Read-only. */
  readonly registryIndex: RegistryIndex;
  /** Registry watches of API keys: per-key mutable state, so main thread only. */
  readonly watches: WatchStore;
  /** Balances of keys (GET /usage): the ledger lives on the main thread. */
  readonly usage: UsageReader;
  /** The external profile provider of /ai-profile (network I/O, a circuit breaker): main thread; null when none is configured. */
  readonly profileProvider: ProfileProviderPort | null;
  /** The statement review workflow (uploads, review records, the analysis queue): main thread only. */
  readonly statements: StatementReviewDesk;
  /** Fixture manifest signing keys (every thread gets them from the main thread); null: signing is off. */
  readonly manifestKeys: ManifestKeys | null;
}

export type Capability = keyof Capabilities;

/**
 * Capabilities a pool worker has: read-only views of data every thread can open. An op that needs
 * anything else must run on the main thread (Op.runsOn 'main').
 */
export const poolCapabilities: ReadonlySet<Capability> = new Set<Capability>([
  'requestKey',
  'bank',
  'routing',
  'registry',
  'registryIndex',
  'manifestKeys',
]);

/** What every op gets, whatever it declares. */
export interface BaseContext {
  readonly caller: CallerView;
  /** First row index of this slice: a stream or a split batch runs rows [rowStart, rowStart + n). */
  readonly rowStart: number;
  /** The service's clock: ops never read the wall clock themselves, so tests can pin time. */
  readonly now: () => Date;
}

/** The context of an op that declared the capabilities N. */
export type RunContext<N extends Capability = Capability> = BaseContext & Pick<Capabilities, N>;

/** An external profile source (an OpenAI-compatible chat-completions endpoint); see src/ops/profiles/external/. */
export interface ProfileProviderPort {
  readonly name: string;
  readonly model: string;
  /** Resolves to the provider's raw JSON object for the prompt, or rejects with AppError('unavailable'). */
  complete(prompt: string): Promise<unknown>;
}

/** Where an op may run: 'main' keeps it on the main thread; 'any' lets a large request go to the pool. */
export type Placement = 'main' | 'any';

/** An upload as the statement ops hand it to the review workflow. */
export interface StatementUpload {
  readonly keyId: string;
  readonly paid: boolean;
  readonly bytes: Uint8Array;
  /** The file type the upload check recognised (the op's gate): not sniffed again. */
  readonly kind: StatementFileKind;
  readonly expectedBank: string | null;
  readonly expectedBankSlug: string | null;
}

/**
 * What the statement ops ask of the review workflow (src/statements/reviews.ts implements it): accept an
 * upload, show a review, delete one. Each answers the wire view of the review.
 */
export interface StatementReviewDesk {
  accept(upload: StatementUpload): Promise<Record<string, unknown>>;
  view(keyId: string, reviewId: string): Promise<Record<string, unknown>>;
  remove(keyId: string, reviewId: string): Promise<Record<string, unknown>>;
}
