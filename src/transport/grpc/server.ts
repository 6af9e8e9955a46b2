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
import type { AnyOp } from '../../ops/framework/op.js';
import type { CallIdentity, Service } from '../../service/execute.js';
import { renderCsv } from '../../render/csv.js';
import { grpcErrorOf, metadataText, peerIp, requestIdMetadata, requestIdOf } from './calls.js';
import { assertContract, type ServiceMethods } from './contract.js';
import { loadIbanQaPackage } from './proto.js';
import { uploadStream } from './upload-stream.js';
import { observed } from './observe.js';
import { strictService } from './strict-decode.js';
import type { HttpMetrics } from '../http/metrics.js';

export interface GrpcFrontDeps {
  readonly service: Service;
  readonly ops: readonly AnyOp[];
  readonly logger: Logger;
  /** Calls are counted here with REST requests (label transport="grpc"). */
  readonly metrics?: HttpMetrics;
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
    call.sendMetadata(requestIdMetadata(requestId));
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
 * its size); replies keep the inbound order because messages are executed one after another.
 */
function bidi(deps: GrpcFrontDeps, op: AnyOp) {
  return (call: ServerDuplexStream<unknown, unknown>) => {
    const requestId = requestIdOf(call.metadata);
    call.sendMetadata(requestIdMetadata(requestId));
    const identity = identityOf(call);
    let failed = false;
    let queue: Promise<void> = Promise.resolve();
    let queued = 0;
    const reply = async (message: unknown) => {
      if (failed) return;
      try {
        const outcome = await deps.service.execute(op, message, identity);
        if (!call.write(outcome.output))
          await new Promise((resolve) => call.once('drain', resolve));
      } catch (thrown) {
        failed = true;
        call.emit('error', failure(deps, op, thrown, requestId));
      }
    };
    call.on('data', (message: unknown) => {
      // Bounded read-ahead: past limits.streamMessagesQueuedMax waiting messages, stop reading the socket.
      if (++queued >= limits.streamMessagesQueuedMax) call.pause();
      queue = queue
        .then(() => reply(message))
        .finally(() => {
          if (--queued < limits.streamMessagesQueuedMax) call.resume();
        });
    });
    call.on('end', () => {
      void queue.then(() => {
        if (!failed) call.end();
      });
    });
  };
}

/** Server stream: the service admits once, produces chunks and settles with the rows actually sent. */
function serverStream(deps: GrpcFrontDeps, op: AnyOp) {
  return (call: ServerWritableStream<unknown, unknown>) => {
    const requestId = requestIdOf(call.metadata);
    call.sendMetadata(requestIdMetadata(requestId));
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

export async function startGrpcFront(
  deps: GrpcFrontDeps,
  host: string,
  port: number,
): Promise<GrpcFront> {
  const { definition, service } = loadIbanQaPackage();
  assertContract(service.service as unknown as ServiceMethods, deps.ops);
  const server = new Server({ 'grpc.max_receive_message_length': limits.grpcMessageBytesMax });
  server.addService(strictService(service.service, definition), implementationOf(deps));
  new ReflectionService(definition).addToServer(server);
  const boundPort = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${host}:${port}`, ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    );
  });
  return {
    port: boundPort,
    close: () =>
      new Promise((resolve) => {
        server.tryShutdown(() => resolve());
      }),
  };
}
