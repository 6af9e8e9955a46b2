import type { Static, TSchema } from '@sinclair/typebox';
import type { CreditKind, PlanId } from '../../accounts/plans.js';
import type { RequestKey } from '../../domain/rng.js';
import type { IdempotencyRequest } from '../../accounts/idempotency-store.js';
import type { BankDirectory } from '../../registry/bank-directory.js';
import type { RoutingDirectory } from '../../registry/routing-directory.js';
import type { StatementReviews } from '../../statements/reviews.js';

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
  /** Statement reviews (uploads, review records, the analysis queue); absent: the statement ops are unavailable. */
  readonly statements?: StatementReviews;
}

export type Debits = Partial<Record<CreditKind, number>>;

/** 'key': X-API-Key required; 'key_optional': keyless mode exists (validate); 'none': public. */
export type Access = 'key' | 'key_optional' | 'none';

export interface HttpBinding {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Relative to /api/v1; `:name` segments are path parameters merged into the input. */
  readonly path: string;
  /** Where the input comes from: the JSON body, the query string (+ path parameters), or a multipart/form-data
   *  upload (transport/http/multipart.ts: text fields by name, file parts as `files`). */
  readonly inputFrom: 'body' | 'query' | 'multipart';
  /** Further paths that behave exactly like `path` (spec aliases). */
  readonly aliasPaths?: readonly string[];
}

export interface GrpcBinding {
  readonly method: string;           // RPC name in ibanqa.v1.IbanQa
  /** Streaming RPCs: 'bidi' runs the op once per inbound message; 'server' runs it per outbound chunk;
   *  'client' collects an upload from inbound chunks and runs the op once (transport/grpc/upload-stream.ts). */
  readonly stream?: 'bidi' | 'server' | 'client';
  /** How the op's output sits in the response message: as is, or a JSON array wrapped as `rows`. */
  readonly wrap: 'object' | 'rows';
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
  /** The form fields of a multipart op as the OpenAPI document shows them (the input holds the parsed parts). */
  readonly multipartSchema?: TSchema;
  readonly output: TSchema;
  /** Status of a successful HTTP answer. */
  readonly successStatus?: 200 | 201 | 202;
  /** When the status depends on the output (a review poll: 202 while running, 200 when done); wins over successStatus. */
  readonly successStatusOf?: (output: Awaited<O>) => 200 | 202;
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
