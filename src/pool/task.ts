import type { ErrorData } from '../errors.js';
import type { CallerView } from '../ops/op.js';
import type { RequestKey } from '../domain/rng.js';

/** What crosses the thread boundary: plain data only (structured clone drops classes and methods). */
export interface TaskRequest {
  readonly op: string;
  readonly input: unknown;
  readonly caller: CallerView;
  readonly requestKey: RequestKey;
  /** Row window for ops that can be split (streams): rows [rowStart, rowStart + rowCount). */
  readonly rowStart?: number;
  readonly rowCount?: number;
}

export type TaskResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: ErrorData };
