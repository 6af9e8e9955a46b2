import type { ErrorData } from '../errors.js';
import type { AnyOp, CallerView } from '../contract/op.js';
import type { RequestKey } from '../domain/rng.js';
import type { StatementFileKind } from '../domain/statements/file-type.js';
import type { BodyFormat } from '../render/body.js';

/** A run the service hands to the pool (src/pool/pool.ts runs it in a worker). */
export interface PoolTask {
  readonly op: AnyOp;
  readonly input: unknown;
  readonly caller: CallerView;
  readonly requestKey: RequestKey | undefined;
  readonly rowStart: number;
  readonly registryVersion: number;
  readonly render?: BodyFormat | undefined;
  /** The dispatching thread's clock reading: the worker's context answers from it (the service has one clock). */
  readonly now: Date;
}

/** The service's way into the pool; tests and front threads give their own. */
export interface Runner {
  /** Runs an op in the worker pool; rejects with AppError on failure. With `render`, resolves to a RenderedBody. */
  runInPool(task: PoolTask): Promise<unknown>;
}

/** What crosses the thread boundary: plain data only (structured clone drops classes and methods). */
export interface TaskRequest {
  readonly op: string;
  readonly input: unknown;
  readonly caller: CallerView;
  /** Only for ops that declared 'requestKey'. */
  readonly requestKey?: RequestKey | undefined;
  /** First row index of this slice (streams run chunks of rows; the chunk size is in the input). */
  readonly rowStart?: number;
  /** Serialize the output in the worker (REST bodies): a string crosses the thread boundary as one copy,
   *  where thousands of row objects cost as much to clone as to generate (bench/RESULTS.md §4). */
  readonly render?: BodyFormat;
  /** The registry version the main thread answers from; a worker on another version refuses the task. */
  readonly registryVersion: number;
  /** The main thread's clock at dispatch, as ISO text: the op's `now()` in the worker (one clock, pinnable). */
  readonly now: string;
}

export type TaskResult =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: true;
      readonly rendered: { readonly format: BodyFormat; readonly body: string | Uint8Array };
    }
  | { readonly ok: false; readonly error: ErrorData };

/** A statement analysis: the stored upload still encrypted; the worker decrypts it, so the plain bytes never cross threads. */
export interface StatementTask {
  readonly kind: 'statement-analysis';
  readonly reviewId: string;
  /** The upload as stored (src/statements/upload-store.ts): nonce | tag | AES-256-GCM ciphertext. */
  readonly sealed: Uint8Array;
  readonly key: Uint8Array;
  /** The file type the upload check recognised on acceptance; the stored bytes are those bytes (AES-GCM). */
  readonly fileKind: StatementFileKind;
  readonly expectedBank: string | null;
  readonly expectedBankSlug: string | null;
  readonly callerPaid: boolean;
  /** The review's clock, as ISO text (period and metadata dates are judged against it). */
  readonly now: string;
}

export type StatementTaskResult =
  | { readonly ok: true; readonly report: unknown }
  | { readonly ok: false; readonly reason: string; readonly detail: string };
