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
import type { AnyOp, RunContext } from '../../ops/framework/op.js';
import type { CallIdentity, Service } from '../../service/execute.js';
import { renderCsv } from '../../render/csv.js';
import { grpcErrorOf, metadataText, peerIp, requestIdMetadata, requestIdOf } from './calls.js';
import { loadIbanQaPackage } from './proto.js';
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

type AnyCall = ServerUnaryCall<unknown, unknown> | ServerDuplexStream<unknown, unknown> | ServerWritableStream<unknown, unknown>;

function identityOf(call: AnyCall): CallIdentity {
  return { apiKey: metadataText(call.metadata, 'x-api-key'), ip: peerIp(call.getPeer()) };
}

function failure(deps: GrpcFrontDeps, op: AnyOp, thrown: unknown, requestId: string): ReturnType<typeof grpcErrorOf> {
  const error: AppError = toAppError(thrown);
  if (error.code === 'internal') deps.logger.error({ err: error.cause ?? thrown, requestId, op: op.name }, 'internal error');
  return grpcErrorOf(error, requestId);
}

function unary(deps: GrpcFrontDeps, op: AnyOp) {
  return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
    const requestId = requestIdOf(call.metadata);
    call.sendMetadata(requestIdMetadata(requestId));
    deps.service
      .execute(op, call.request, identityOf(call))
      .then(async (outcome) => {
        if (op.csv?.wanted(outcome.input)) return { csv: await renderCsv(op.csv, outcome.output) };
        return op.grpc.wrap === 'rows' ? { rows: outcome.output } : outcome.output;
      })
      .then((response) => callback(null, response))
      .catch((thrown: unknown) => callback(failure(deps, op, thrown, requestId)));
  };
}

/** Bidi: each inbound message is one admitted, metered run of the op; replies keep the inbound order. */
function bidi(deps: GrpcFrontDeps, op: AnyOp) {
  return (call: ServerDuplexStream<unknown, unknown>) => {
    const requestId = requestIdOf(call.metadata);
    call.sendMetadata(requestIdMetadata(requestId));
    const identity = identityOf(call);
    let failed = false;
    call.on('data', (message: unknown) => {
      if (failed) return;
      try {
        const admission = deps.service.admit(op, message, identity, (input, caller) => op.cost(input as never, caller));
        let ok = false;
        try {
          const context: RunContext = { requestKey: admission.requestKey, caller: admission.caller, bank: deps.service.bank, rowStart: 0 };
          const output = op.run(admission.input as never, context);
          ok = true;
          if (!call.write(output)) {
            call.pause();
            call.once('drain', () => call.resume());
          }
        } finally {
          admission.settle(ok);
        }
      } catch (thrown) {
        failed = true;
        call.emit('error', failure(deps, op, thrown, requestId));
      }
    });
    call.on('end', () => {
      if (!failed) call.end();
    });
  };
}

/** Server stream: admitted once (all rows reserved), produced in chunks, settled with the rows actually sent. */
function serverStream(deps: GrpcFrontDeps, op: AnyOp) {
  return (call: ServerWritableStream<unknown, unknown>) => {
    const requestId = requestIdOf(call.metadata);
    call.sendMetadata(requestIdMetadata(requestId));
    let sent = 0;
    let admission: ReturnType<Service['admit']> | undefined;
    const produce = async () => {
      admission = deps.service.admit(op, call.request, identityOf(call), (input, caller) => op.cost(input as never, caller));
      const input = admission.input as { count: number };
      for (let start = 0; start < input.count && !call.cancelled; start += limits.generateStreamChunkRows) {
        const count = Math.min(limits.generateStreamChunkRows, input.count - start);
        const rows = await deps.service.run(op, { ...input, count }, admission.caller, admission.requestKey, start, input.count);
        if (call.cancelled) break;
        if (!call.write({ start_index: start, rows })) await new Promise((resolve) => call.once('drain', resolve));
        sent += count;
      }
    };
    produce()
      .then(() => {
        admission?.settle(true, op.cost({ ...(admission.input as object), count: sent } as never, admission.caller));
        if (!call.cancelled) call.end();
      })
      .catch((thrown: unknown) => {
        if (admission !== undefined) {
          if (sent === 0) admission.settle(false);
          else admission.settle(true, op.cost({ ...(admission.input as object), count: sent } as never, admission.caller));
        }
        call.emit('error', failure(deps, op, thrown, requestId));
      });
  };
}

function implementationOf(deps: GrpcFrontDeps): UntypedServiceImplementation {
  const implementation: UntypedServiceImplementation = {};
  for (const op of deps.ops) {
    const handler = op.grpc.stream === 'bidi' ? bidi(deps, op) : op.grpc.stream === 'server' ? serverStream(deps, op) : unary(deps, op);
    implementation[op.grpc.method] = observed(deps, op, handler as UntypedServiceImplementation[string]);
  }
  return implementation;
}

export interface GrpcFront {
  readonly port: number;
  close(): Promise<void>;
}

/** Every op must have its RPC in the proto, and every RPC an op: checked at boot, or the server refuses to start. */
function assertParity(serviceMethods: readonly string[], ops: readonly AnyOp[]): void {
  const opMethods = new Set(ops.map((op) => op.grpc.method));
  const missing = serviceMethods.filter((name) => !opMethods.has(name));
  const extra = [...opMethods].filter((name) => !serviceMethods.includes(name));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(`gRPC contract and op table disagree: RPCs without op [${missing.join(', ')}], ops without RPC [${extra.join(', ')}]`);
  }
}

export async function startGrpcFront(deps: GrpcFrontDeps, host: string, port: number): Promise<GrpcFront> {
  const { definition, service } = loadIbanQaPackage();
  const methods = Object.keys(service.service);
  assertParity(methods, deps.ops);
  const server = new Server({ 'grpc.max_receive_message_length': 4 * 1024 * 1024 });
  server.addService(strictService(service.service, definition), implementationOf(deps));
  new ReflectionService(definition).addToServer(server);
  const boundPort = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${host}:${port}`, ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound)));
  });
  return {
    port: boundPort,
    close: () =>
      new Promise((resolve) => {
        server.tryShutdown(() => resolve());
      }),
  };
}
