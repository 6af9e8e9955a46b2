import type { Static, TSchema } from '@sinclair/typebox';
import type { CreditKind, PlanId } from '../../accounts/plans.js';
import type { RequestKey } from '../../domain/rng.js';
import type { IdempotencyRequest } from '../../accounts/idempotency-store.js';
import type { BankDirectory } from '../../registry/bank-directory.js';
import type { RoutingDirectory } from '../../registry/routing-directory.js';
import type { ManifestKeys } from '../../domain/manifest/signing.js';

/** Who is calling, as plain data (it crosses the worker boundary with the task). */
export interface CallerView {
  readonly keyId: string | null;
  readonly plan: PlanId | null;      // null: keyless
  readonly paid: boolean;
}

export interface RunContext {
  readonly requestKey: RequestKey;   // from the seed, or fresh random bytes when unseeded
  readonly caller: CallerView;
  readonly bank: BankDirectory;
  /** First row index of this slice: a stream or a split batch runs rows [rowStart, rowStart + n). */
  readonly rowStart: number;
  /** US routing directory ; absent: none wired, the /us/routing ops treat it as not loaded. */
  readonly routing?: RoutingDirectory;
  /** Fixture manifest signing keys; absent: manifests are hashed but not signed, no keys published. */
  readonly manifestKeys?: ManifestKeys;
}

export type Debits = Partial<Record<CreditKind, number>>;

/** 'key': X-API-Key required; 'key_optional': keyless mode exists (validate); 'none': public. */
export type Access = 'key' | 'key_optional' | 'none';

export interface HttpBinding {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Relative to /api/v1; `:name` segments are path parameters merged into the input. */
  readonly path: string;
  /** Where the input comes from: the JSON body, or the query string (+ path parameters). */
  readonly inputFrom: 'body' | 'query';
  /** Also served at the same path without the /api/v1 prefix (the spec writes /fixture-manifest/schema/1.0 so). */
  readonly unprefixedAlias?: boolean;
}

export interface GrpcBinding {
  readonly method: string;           // RPC name in ibanqa.v1.IbanQa
  /** Streaming RPCs: 'bidi' runs the op once per inbound message; 'server' runs it per outbound chunk. */
  readonly stream?: 'bidi' | 'server';
  /** How the op's output sits in the response message: as is, or a JSON array wrapped as `rows`. */
  readonly wrap: 'object' | 'rows';
  /** The response message built from the op's output, when it is not the output as is (e.g. exact JSON text). */
  readonly toMessage?: (output: unknown) => unknown;
}

/** CSV rendering of an output (test-cases, bulk datasets, exports): header order and row cells. */
export interface CsvRendering<O> {
  readonly wanted: (input: unknown) => boolean;
  readonly headers: readonly string[];
  readonly rows: (output: O) => readonly (readonly (string | number | boolean | null)[])[];
}

/**
 * One operation, declared once. HTTP routes, gRPC methods, the OpenAPI document, metering and the
 * worker pool all read this declaration; no transport names an operation in code.
 */
export interface Op<S extends TSchema = TSchema, O = unknown> {
  readonly name: string;
  readonly summary: string;
  readonly description: string;
  readonly tag: string;
  /** null for gRPC-only operations (the streams). */
  readonly http: HttpBinding | null;
  readonly grpc: GrpcBinding;
  readonly access: Access;
  readonly input: S;
  readonly output: TSchema;
  /** Status of a successful HTTP answer. */
  readonly successStatus?: 200 | 201 | 202;
  /** The seed that makes the output deterministic, if the request carries one. */
  readonly seedOf?: (input: Static<S>) => string | undefined;
  /**
   * The parameters that shape each row (not quantity, not output format), so a seeded request of 5 rows
   * is the prefix of the same request of 100 rows, and a stream with the same seed repeats them.
   */
  readonly rowParameters?: (input: Static<S>) => unknown;
  /** Ops that produce the same rows share a scope (generate and the generate stream). Default: name. */
  readonly keyScope?: string;
  /** Keyless callers (access 'key_optional'): rows allowed per request. */
  readonly keylessRowsMax?: number;
  /** Plan gate; throws AppError (402/403) when the caller's plan does not allow this request. */
  readonly gate?: (input: Static<S>, caller: CallerView) => void;
  /** Credits to reserve before running (all or nothing). */
  readonly cost: (input: Static<S>, caller: CallerView) => Debits;
  /** Credits to commit after a successful run when fewer than reserved were used (search); default: all of `cost`. */
  readonly usedCost?: (input: Static<S>, output: O, caller: CallerView) => Debits;
  /** Rows of work, compared with the pool threshold to run inline or in a worker. */
  readonly rows: (input: Static<S>) => number;
  readonly run: (input: Static<S>, context: RunContext) => O;
  readonly csv?: CsvRendering<O>;
  /**
   * Idempotent ops (/us/routing/run, full /us/routing/profile): the record a keyed request claims.
   * The same key id + record key + fingerprint returns the saved output with `replayed: true` and debits
   * nothing; another fingerprint is 409. May throw AppError (e.g. an expired request_id). undefined: not claimed.
   */
  readonly idempotency?: (input: Static<S>, now: Date) => IdempotencyRequest | undefined;
}

export function defineOp<S extends TSchema, O>(op: Op<S, O>): Op<S, O> {
  return Object.freeze(op);
}

/** The op table holds ops of many input types; this is its element type. */
export type AnyOp = Op<TSchema, unknown>;

/** An op served over REST. */
export type HttpOp = AnyOp & { readonly http: HttpBinding };

export function isHttpOp(op: AnyOp): op is HttpOp {
  return op.http !== null;
}
