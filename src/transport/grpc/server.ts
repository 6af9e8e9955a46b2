import {
  Server,
  ServerCredentials,
  type ServerDuplexStream,
  type ServerUnaryCall,
  type ServerWritableStream,
  type UntypedServiceImplementation,
  type sendUnaryData,
} from '@grpc/grpc-js';
import { ReflectionService } from '@grpc/reflection';
import type { Logger } from 'pino';
import { toAppError, type AppError } from '../../errors.js';
import { limits } from '../../limits.js';
import type { AnyOp } from '../../contract/op.js';
import type { CallIdentity, ExecuteOutcome, Service } from '../../service/execute.js';
import { renderCsv } from '../../render/csv.js';
import { grpcErrorOf, metadataText, peerIp, requestIdMetadata, requestIdOf } from './calls.js';
import { assertContract, type ServiceMethods } from './contract.js';
import { loadIbanQaPackage } from './proto.js';
import { uploadStream } from './upload-stream.js';
import { observed } from './observe.js';
import type { StatusObserver } from '../observed-statuses.js';
import { strictService } from './strict-decode.js';
import { widenReceiveWindow } from './receive-window.js';
import { markUnusableRequestIds } from './unusable-request-ids.js';
import type { HttpMetrics } from '../http/metrics.js';
import { PortInUseError } from '../port-claim.js';

export interface GrpcFrontDeps {
  readonly service: Service;
  readonly ops: readonly AnyOp[];
  readonly logger: Logger;
  /** Calls are counted here with REST requests (label transport="grpc"). */
  readonly metrics?: HttpMetrics;
  /** Records each kind of answer (IBANQA_OBSERVED_STATUSES_DIR); off when undefined. */
  readonly observer?: StatusObserver;
}

type AnyCall =
  | ServerUnaryCall<unknown, unknown>
  | ServerDuplexStream<unknown, unknown>
  | ServerWritableStream<unknown, unknown>;

function identityOf(call: AnyCall): CallIdentity {
  return { apiKey: metadataText(call.metadata, 'x-api-key'), ip: peerIp(call.getPeer()) };
}

function failure(
  deps: GrpcFrontDeps,
  op: AnyOp,
  thrown: unknown,
  requestId: string,
): ReturnType<typeof grpcErrorOf> {
  const error: AppError = toAppError(thrown);
  if (error.code === 'internal')
    deps.logger.error({ err: error.cause ?? thrown, requestId, op: op.name }, 'internal error');
  return grpcErrorOf(error, requestId);
}

function unary(deps: GrpcFrontDeps, op: AnyOp) {
  return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
    const requestId = requestIdOf(call.metadata);
    call.sendMetadata(requestIdMetadata(requestId, call.metadata));
    const request =
      op.grpc.decode === undefined
        ? call.request
        : op.grpc.decode(call.request as Record<string, unknown>);
    deps.service
      .execute(op, request, identityOf(call))
      .then(async (outcome) => {
        if (outcome.format === 'csv' && op.csv !== undefined)
          return { csv: await renderCsv(op.csv, outcome.output) };
        if (op.grpc.toMessage !== undefined) return op.grpc.toMessage(outcome.output);
        return op.grpc.wrap === 'rows' ? { rows: outcome.output } : outcome.output;
      })
      .then((response) => callback(null, response))
      .catch((thrown: unknown) => callback(failure(deps, op, thrown, requestId)));
  };
}

/**
 * Bidi: each inbound message is one request through the service (admitted, metered, inline or pooled by
 * its size). Messages execute as they arrive, so one batch's durable commit does not hold up the next
 * batch's work (run one after another, a stream waited for every commit in turn: ~4x fewer IBANs/s on one
 * stream); replies keep the inbound order. A message commits only once the one before it was decided a
 * success, so when one fails and ends the stream, the messages behind it are refunded, never charged unsent.
 */
function bidi(deps: GrpcFrontDeps, op: AnyOp) {
  return (call: ServerDuplexStream<unknown, unknown>) => {
    const requestId = requestIdOf(call.metadata);
    call.sendMetadata(requestIdMetadata(requestId, call.metadata));
    const identity = identityOf(call);
    let failed = false;
    let replies: Promise<void> = Promise.resolve();
    let previousDecided: Promise<boolean> = Promise.resolve(true);
    let queued = 0;
    const deliver = async (executed: Promise<ExecuteOutcome>) => {
      try {
        const outcome = await executed;
        if (failed) return;
        if (!call.write(outcome.output))
          await new Promise((resolve) => call.once('drain', resolve));
      } catch (thrown) {
        if (failed) return;
        failed = true;
        call.emit('error', failure(deps, op, thrown, requestId));
      }
    };
    call.on('data', (message: unknown) => {
      if (failed) return;
      // Bounded read-ahead: past limits.streamMessagesQueuedMax waiting messages, stop reading the socket.
      if (++queued >= limits.streamMessagesQueuedMax) call.pause();
      let decide: (succeeded: boolean) => void = () => undefined;
      const decided = new Promise<boolean>((resolve) => (decide = resolve));
      const executed = deps.service.execute(op, message, identity, {
        after: previousDecided,
        onDecided: decide,
      });
      // A refusal before the run (bad input, no credits) never reaches onDecided.
      executed.catch(() => decide(false));
      previousDecided = decided;
      replies = replies
        .then(() => deliver(executed))
        .finally(() => {
          if (--queued < limits.streamMessagesQueuedMax) call.resume();
        });
    });
    call.on('end', () => {
      void replies.then(() => {
        if (!failed) call.end();
      });
    });
  };
}

/** Server stream: the service admits once, produces chunks and settles with the rows actually sent. */
function serverStream(deps: GrpcFrontDeps, op: AnyOp) {
  return (call: ServerWritableStream<unknown, unknown>) => {
    const requestId = requestIdOf(call.metadata);
    call.sendMetadata(requestIdMetadata(requestId, call.metadata));
    const sink = {
      cancelled: () => call.cancelled,
      write: async (chunk: unknown) => {
        if (!call.write(chunk)) await new Promise((resolve) => call.once('drain', resolve));
      },
    };
    deps.service
      .stream(op, call.request, identityOf(call), sink)
      .then(() => {
        if (!call.cancelled) call.end();
      })
      .catch((thrown: unknown) => call.emit('error', failure(deps, op, thrown, requestId)));
  };
}

function implementationOf(deps: GrpcFrontDeps): UntypedServiceImplementation {
  const implementation: UntypedServiceImplementation = {};
  for (const op of deps.ops) {
    const handler =
      op.grpc.stream === 'bidi'
        ? bidi(deps, op)
        : op.grpc.stream === 'server'
          ? serverStream(deps, op)
          : op.grpc.stream === 'client'
            ? uploadStream(deps, op)
            : unary(deps, op);
    implementation[op.grpc.method] = observed(
      deps,
      op,
      handler as UntypedServiceImplementation[string],
    );
  }
  return implementation;
}

export interface GrpcFront {
  readonly port: number;
  close(): Promise<void>;
}

/** Where the gRPC front listens, and the setting that moves it (named when the port is refused). */
export interface GrpcAddress {
  readonly host: string;
  readonly port: number;
  readonly setting: string;
}

export async function startGrpcFront(
  deps: GrpcFrontDeps,
  address: GrpcAddress,
): Promise<GrpcFront> {
  const { host, port } = address;
  const { definition, service } = loadIbanQaPackage();
  assertContract(service.service as unknown as ServiceMethods, deps.ops);
  const server = new Server({
    'grpc.max_receive_message_length': limits.grpcMessageBytesMax,
    'grpc.max_concurrent_streams': limits.grpcConcurrentStreamsMax,
  });
  server.addService(strictService(service.service, definition), implementationOf(deps));
  new ReflectionService(definition).addToServer(server);
  const boundPort = await new Promise<number>((resolve, reject) => {
    // grpc-js binds through node:net without SO_REUSEPORT, so a port in use is refused (EADDRINUSE), never shared.
    server.bindAsync(`${host}:${port}`, ServerCredentials.createInsecure(), (error, bound) =>
      error
        ? reject(
            error.message.includes('EADDRINUSE')
              ? new PortInUseError({ front: 'gRPC', ...address })
              : error,
          )
        : resolve(bound),
    );
  });
  widenReceiveWindow(server, limits.grpcReceiveWindowBytes, (why) => deps.logger.warn(why));
  markUnusableRequestIds(server);
  return {
    port: boundPort,
    close: () =>
      new Promise((resolve) => {
        server.tryShutdown(() => resolve());
      }),
  };
}
