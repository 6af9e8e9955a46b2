import {
  status,
  type Metadata,
  type ServerUnaryCall,
  type UntypedHandleCall,
  type sendUnaryData,
} from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { AppError, type ErrorCode } from '../../errors.js';
import { errorCodeOfWire } from '../wire-errors.js';
import type { StatusObserver } from '../observed-statuses.js';
import type { AnyOp } from '../../contract/op.js';
import type { HttpMetrics } from '../http/metrics.js';
import { grpcErrorOf, metadataText, requestIdMetadata, requestIdOf } from './calls.js';

/**
 * The gRPC access rule: every RPC needs x-api-key. Over REST, POST /validate has a keyless mode (10 IBANs
 * per request, 100 per day per IP) meant for trying the service from a browser or curl; gRPC callers are
 * harnesses with a key, and a per-IP allowance behind gRPC load balancers would count the balancer.
 */
export function missingKeyError(op: AnyOp, metadata: Metadata): AppError | undefined {
  if (op.access !== 'key_optional' || metadataText(metadata, 'x-api-key') !== undefined)
    return undefined;
  return new AppError(
    'unauthenticated',
    `Missing API key: gRPC ${op.grpc.method} needs the x-api-key metadata entry (the keyless mode is REST only)`,
  );
}

type Unary = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => void;
interface StreamCall {
  readonly metadata: Metadata;
  sendMetadata(metadata: Metadata): void;
  once(event: string, listener: (...args: unknown[]) => void): unknown;
  emit(event: string, ...args: unknown[]): boolean;
}

export interface GrpcObserveDeps {
  readonly logger: Logger;
  readonly metrics?: HttpMetrics;
  /** Records each kind of answer (IBANQA_OBSERVED_STATUSES_DIR); off when undefined. */
  readonly observer?: StatusObserver;
}

/** The error code a refused call carried in its `error` trailer; null for a success or grpc-js's own refusals. */
function errorCodeOf(error: unknown): ErrorCode | null {
  const text = (error as { metadata?: Metadata } | null)?.metadata?.get('error')[0];
  return typeof text === 'string' ? (errorCodeOfWire(text) ?? null) : null;
}

function outcomeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? (status[code] ?? String(code)) : 'OK';
}

/**
 * Wraps an RPC handler: applies the access rule, counts the call in /metrics by its final status, and
 * answers INTERNAL (logged with the request id) if the handler throws synchronously, so a bug cannot
 * leave a call hanging or reach the process's uncaught-exception path.
 */
export function observed(
  deps: GrpcObserveDeps,
  op: AnyOp,
  handler: UntypedHandleCall,
): UntypedHandleCall {
  const count = (outcome: string, startedMs: number, metadata: Metadata, error?: unknown) => {
    deps.metrics?.observe(op.name, outcome, 'grpc', startedMs);
    deps.observer?.record({
      transport: 'grpc',
      operation: op.name,
      status: outcome,
      code: errorCodeOf(error),
      keyed: metadataText(metadata, 'x-api-key') !== undefined,
    });
  };
  // Unary and client-stream handlers answer through a callback; bidi and server streams through the call.
  if (op.grpc.stream === undefined || op.grpc.stream === 'client') {
    const unary = handler as Unary;
    return ((call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      const startedMs = performance.now();
      const answer: sendUnaryData<unknown> = (error, value) => {
        // Counted after the answer is handed over (its encoding is part of the duration), whatever that throws.
        try {
          callback(error, value);
        } finally {
          count(outcomeOf(error), startedMs, call.metadata, error);
        }
      };
      const refusal = missingKeyError(op, call.metadata);
      if (refusal !== undefined) {
        const requestId = requestIdOf(call.metadata);
        call.sendMetadata(requestIdMetadata(requestId, call.metadata));
        answer(grpcErrorOf(refusal, requestId) as never);
        return;
      }
      try {
        unary(call, answer);
      } catch (thrown) {
        const requestId = requestIdOf(call.metadata);
        deps.logger.error({ err: thrown, requestId, op: op.name }, 'internal error');
        answer(grpcErrorOf(new AppError('internal', 'internal error'), requestId) as never);
      }
    }) as UntypedHandleCall;
  }
  return ((call: StreamCall) => {
    const startedMs = performance.now();
    let counted = false;
    const once = (outcome: string, error?: unknown) => {
      if (!counted) count(outcome, startedMs, call.metadata, error);
      counted = true;
    };
    call.once('error', (error) => once(outcomeOf(error), error));
    call.once('finish', () => once('OK'));
    try {
      (handler as (call: StreamCall) => void)(call);
    } catch (thrown) {
      const requestId = requestIdOf(call.metadata);
      deps.logger.error({ err: thrown, requestId, op: op.name }, 'internal error');
      call.emit('error', grpcErrorOf(new AppError('internal', 'internal error'), requestId));
    }
  }) as UntypedHandleCall;
}
