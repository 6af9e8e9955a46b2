// The op contract: what the layers above it (render, pool, statements, ops, service, transports) agree on about
// an operation. It imports only from below (domain, ports, registry types, errors); ARCHITECTURE.md, "Layers".
import type { Static, TSchema } from '@sinclair/typebox';
import type { IdempotencyRequest } from '../ports/idempotency.js';
import type { Debits } from '../ports/credits.js';
import type { CreditKind } from '../domain/plans/plans.js';
import type { ErrorCode } from '../errors.js';
import type { CallerView } from './caller.js';
import type { Capability, Placement, RunContext } from './capabilities.js';

export type { CallerView } from './caller.js';
export type { Capability, RunContext } from './capabilities.js';

export type { Debits } from '../ports/credits.js';

/** 'key': X-API-Key required; 'key_optional': keyless mode exists (validate); 'none': public. */
export type Access = 'key' | 'key_optional' | 'none';

export interface HttpBinding {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Relative to /api/v1; `:name` segments are path parameters merged into the input. */
  readonly path: string;
  readonly inputFrom: 'body' | 'query' | 'multipart';
  /** Also served without the /api/v1 prefix (the spec writes some paths that way). */
  readonly unprefixedAlias?: boolean;
  /** Further paths (relative to /api/v1) that serve the same op. */
  readonly aliasPaths?: readonly string[];
}

export interface GrpcBinding {
  readonly method: string; // RPC name in ibanqa.v1.IbanQa
  /** Streaming RPCs: 'bidi' runs the op once per inbound message; 'server' runs it per outbound chunk;
   *  'client' collects an upload from inbound chunks and runs the op once (transport/grpc/upload-stream.ts). */
  readonly stream?: 'bidi' | 'server' | 'client';
  /** How the op's output sits in the response message: as is, or a JSON array wrapped as `rows`. */
  readonly wrap: 'object' | 'rows';
  /** Maps the request message to the op input where proto and JSON differ (JSON text fields); default: as is. */
  readonly decode?: (message: Record<string, unknown>) => unknown;
  /**
   * Free-form JSON fields (no fixed proto shape) travel as JSON text in a `<name>_json` field of the message;
   * decode/toMessage do the conversion, and the contract check compares the fields under those names.
   */
  readonly jsonText?: readonly string[];
  /** The response message built from the op's output, when it is not the output as is (e.g. exact JSON text). */
  readonly toMessage?: (output: unknown) => unknown;
}

/**
 * How an op receives one uploaded file (multipart REST, client-streamed gRPC): the field it arrives in, its
 * byte cap and the error code past the cap. Both transports enforce the cap from here while receiving.
 */
export interface UploadRules {
  readonly field: string;
  readonly maxBytes: number;
  readonly tooLarge: ErrorCode;
}

/** CSV rendering of an output (test-cases, bulk datasets, exports): header order and row cells. */
export interface CsvRendering<O> {
  readonly wanted: (input: unknown) => boolean;
  readonly headers: readonly string[];
  /** Header row when it depends on the output (bulk datasets add profile columns); default: `headers`. */
  headersFor?(this: void, output: O): readonly string[];
  rows(this: void, output: O): readonly (readonly (string | number | boolean | null)[])[];
}

/** How an op's output becomes a response body: JSON always, CSV when the op declares it and the input asks. */
export interface Rendering<O = unknown> {
  readonly csv?: CsvRendering<O>;
}

/** A server stream runs its op once per chunk; row i of the stream is row i of one large request. */
export interface Chunking<I> {
  /** Rows per chunk (one message of the stream). */
  readonly size: number;
  total(this: void, input: I): number;
  /** The same request for `rows` rows (the chunk's first row index travels as the context's rowStart). */
  slice(this: void, input: I, rows: number): I;
}

/** An answer that writes its own JSON: the REST transport sends jsonView() instead of serializing it. */
export interface JsonAnswer {
  /** The answer's JSON as UTF-8, a view of a reused buffer valid until the next call. */
  jsonView(): Uint8Array;
}

/**
 * One operation, declared once. HTTP routes, gRPC methods, the OpenAPI document, metering and the
 * worker pool all read this declaration; no transport names an operation in code.
 *
 * `defineOp` keeps the op's own types: its input schema S (so Static<S> in every member), its output O and the
 * capabilities N its run receives. The members that take the input or the output are methods, so an op of any
 * S, O and N is an AnyOp as it stands (TypeScript compares method parameters both ways): the table lists ops
 * without a cast, and the service hands each member the input it validated against that op's own schema, which
 * is the one place an input's type is trusted. They are declared with `this: void`: ops write them as arrow
 * functions, and the framework may call one apart from its op.
 */
export interface Op<
  S extends TSchema = TSchema,
  O = unknown,
  N extends Capability = Capability,
> extends Rendering<O> {
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
  /** Upload ops: the file field, its byte cap and the error past it (read by both transports). */
  readonly upload?: UploadRules;
  readonly output: TSchema;
  /** Status of a successful HTTP answer. */
  readonly successStatus?: 200 | 201 | 202;
  /** When the status depends on the output (a review poll: 202 while running, 200 when done); wins over successStatus. */
  successStatusOf?(this: void, output: Awaited<O>): 200 | 202;
  /** The seed that makes the output deterministic, if the request carries one. */
  seedOf?(this: void, input: Static<S>): string | undefined;
  /**
   * The parameters that shape each row (not quantity, not output format), so a seeded request of 5 rows
   * is the prefix of the same request of 100 rows, and a stream with the same seed repeats them.
   */
  rowParameters?(this: void, input: Static<S>): unknown;
  /** Ops that produce the same rows share a scope (generate and the generate stream). Default: name. */
  readonly keyScope?: string;
  /** Keyless callers (access 'key_optional'): rows allowed per request. */
  readonly keylessRowsMax?: number;
  /** Plan gate; throws AppError (402/403) when the caller's plan does not allow this request. */
  gate?(this: void, input: Static<S>, caller: CallerView): void;
  /**
   * Error codes this op's gate or run can answer with beyond those the framework derives from the declaration
   * (bad input, key, credits, body size, idempotency, pool): the OpenAPI document lists their statuses.
   */
  readonly refusals?: readonly ErrorCode[];
  /** Credits to reserve before running (all or nothing). */
  cost(this: void, input: Static<S>, caller: CallerView): Debits;
  /**
   * Ops that can answer without revealing bank data (validate): what the request costs then. When the
   * BIC reveals of `cost` do not fit, the request is charged this instead and runs with `caller.revealsSpent`.
   */
  costWithoutReveals?(this: void, input: Static<S>, caller: CallerView): Debits;
  /** Credits to commit after a successful run when fewer than reserved were used (search); default: all of `cost`. */
  usedCost?(this: void, input: Static<S>, output: O, caller: CallerView): Debits;
  /** Rows of work, compared with the pool threshold to run inline or in a worker. */
  rows(this: void, input: Static<S>): number;
  /** The capabilities run() may use besides its input; the context holds exactly these. */
  readonly needs: readonly N[];
  /**
   * 'any': a request of at least the pool threshold in rows runs in a worker (which has only the read-only
   * capabilities); 'main': always on the main thread (ops with per-key state, or too small to be worth a hop).
   */
  readonly runsOn: Placement;
  run(this: void, input: Static<S>, context: RunContext<N>): O | Promise<O>;
  /**
   * How the op renders for a JSON transport (REST), when it writes its answer itself: the same answer as `run`,
   * as an output whose jsonView() the transport sends (render/answer-buffer.ts WrittenJson implements it), e.g. rows
   * written from fragments encoded once per registry version. usedCost then receives this output. Runs inline, and in
   * a pool worker that renders JSON (workers/ops.ts); gRPC and the other callers use `run`.
   */
  runJson?(this: void, input: Static<S>, context: RunContext<N>): JsonAnswer | Promise<JsonAnswer>;
  /** Server-streamed ops: how many rows the request asks for, and the request for a slice of them. */
  readonly chunks?: Chunking<Static<S>>;
  /**
   * Error codes for credit kinds whose exhaustion is not the default 429 credits_exhausted
   * (profiles: 403 generation_limit_reached, as the spec's error table says).
   */
  readonly exhaustedErrors?: Partial<Record<CreditKind, ErrorCode>>;
  /** An output field set after the run to the caller's remaining credits of one kind (profile: generations_left). */
  readonly remainingField?: { readonly kind: CreditKind; readonly field: string };
  /**
   * Idempotent ops (/us/routing/run, full /us/routing/profile): the record a keyed request claims.
   * The same key id + record key + fingerprint returns the saved output with `replayed: true` and debits
   * nothing; another fingerprint is 409. May throw AppError (e.g. an expired request_id). undefined: not claimed.
   */
  idempotency?(this: void, input: Static<S>, now: Date): IdempotencyRequest | undefined;
}

export function defineOp<S extends TSchema, O, N extends Capability = never>(
  op: Op<S, O, N>,
): Op<S, O, N> {
  return Object.freeze(op);
}

/** The op table's element: an op of any input, output and capabilities (see Op). */
export type AnyOp = Op<TSchema, unknown, Capability>;

/** An op served over REST. */
export type HttpOp = AnyOp & { readonly http: HttpBinding };

export function isHttpOp(op: AnyOp): op is HttpOp {
  return op.http !== null;
}
