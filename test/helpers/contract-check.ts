import { status as grpcStatus } from '@grpc/grpc-js';
import { errorCodes, type ErrorCode } from '../../src/errors.js';
import { isHttpOp } from '../../src/contract/op.js';
import { refusalsOf } from '../../src/ops/framework/refusals.js';
import { ops } from '../../src/ops/table.js';
import { grpcStatusOf } from '../../src/transport/grpc/status.js';
import type { ObservedStatus } from '../../src/transport/observed-statuses.js';
import { buildOpenApi } from '../../src/transport/openapi/document.js';
import { wireNamesOf } from '../../src/transport/wire-errors.js';

interface DocumentedOperation {
  readonly operationId: string;
  readonly security: readonly Record<string, unknown>[];
  readonly responses: Readonly<Record<string, { readonly description: string }>>;
}

/** The document's operations by operationId (aliases share their op's responses, so the op's own id is enough). */
function documentedOperations(): Map<string, DocumentedOperation> {
  const document = buildOpenApi(ops.filter(isHttpOp)) as {
    paths: Record<string, Record<string, DocumentedOperation>>;
  };
  const byId = new Map<string, DocumentedOperation>();
  for (const methods of Object.values(document.paths))
    for (const operation of Object.values(methods)) byId.set(operation.operationId, operation);
  return byId;
}

/**
 * Answers no operation owns: the router's own (an unknown path, a known path with another method, a CORS
 * preflight). Any of them may also be a 400 for a request whose framing is refused before routing.
 */
const routerStatuses: Readonly<Record<string, readonly string[]>> = {
  not_found: ['404', '400'],
  method_not_allowed: ['405', '400'],
  preflight: ['204', '403', '400'],
};

/** What is wrong with one REST answer against the document; undefined when the document lists it. */
function restBreach(
  observed: ObservedStatus,
  documented: Map<string, DocumentedOperation>,
): string | undefined {
  const router = routerStatuses[observed.operation];
  if (router !== undefined)
    return router.includes(observed.status) ? undefined : 'a status the router never sends';
  const operation = documented.get(observed.operation);
  if (operation === undefined) return 'an operation the document does not list';
  const response = operation.responses[observed.status];
  if (response === undefined) return `status ${observed.status} is not in the document`;
  if (observed.code !== null) {
    const names = wireNamesOf(observed.code as ErrorCode);
    if (!names.some((name) => response.description.includes(JSON.stringify(name))))
      return `error code ${observed.code} is not listed under ${observed.status}`;
  }
  const keyless = operation.security.length === 0 || operation.security.some((s) => isEmpty(s));
  if (observed.status.startsWith('2') && !observed.keyed && !keyless)
    return 'answered without a key, but the document asks for one';
  return undefined;
}

function isEmpty(requirement: Record<string, unknown>): boolean {
  return Object.keys(requirement).length === 0;
}

/** Statuses grpc-js answers by itself, without the service's `error` trailer (a message over its size, a cancel, a deadline). */
const grpcOwnStatuses = new Set(['OK', 'CANCELLED', 'DEADLINE_EXCEEDED', 'RESOURCE_EXHAUSTED']);

/** gRPC has no per-method error list besides the declaration: the code must be declared, and mapped as declared. */
function grpcBreach(observed: ObservedStatus): string | undefined {
  const op = ops.find((candidate) => candidate.name === observed.operation);
  if (op === undefined) return 'an operation the op table does not hold';
  if (observed.code === null)
    return grpcOwnStatuses.has(observed.status) ? undefined : 'a status without an error code';
  const code = observed.code as ErrorCode;
  if (!errorCodes.includes(code) || !refusalsOf(op).includes(code))
    return `error code ${observed.code} is not declared by the op`;
  if (grpcStatus[grpcStatusOf[code]] !== observed.status)
    return `${code} is mapped to ${grpcStatus[grpcStatusOf[code]]}, not ${observed.status}`;
  return undefined;
}

/** Every observed answer the contract does not list, one line each. */
export function contractBreaches(observed: readonly ObservedStatus[]): string[] {
  const documented = documentedOperations();
  const breaches: string[] = [];
  for (const answer of observed) {
    const breach =
      answer.transport === 'rest' ? restBreach(answer, documented) : grpcBreach(answer);
    if (breach !== undefined) breaches.push(`${JSON.stringify(answer)}: ${breach}`);
  }
  return breaches;
}
