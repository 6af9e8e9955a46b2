/**
 * The error codes one operation can answer with, derived from the declaration that produces each of them, so
 * the contract lists what a client will meet instead of every code the service knows. The service refuses to
 * send any other code for the op (`Service` turns it into a logged 500), so this set is both what the op does
 * and what the OpenAPI document and the gRPC contract say it does:
 * - invalid_argument: every op validates its input (unknown fields included);
 * - invalid_country: an op with a top-level country field (the spec's 400 "Invalid country");
 * - unauthenticated and payment_required: every keyed op (a missing or unknown key; an expired 24h Pass);
 * - credits_exhausted, or the op's `exhaustedErrors` for a credit kind: keyed ops that spend credits;
 * - rate_limited: keyless calls of a 'key_optional' op (the per-IP allowance);
 * - conflict: idempotent ops (a request_id reused with another body);
 * - overloaded: ops whose rows may run in the worker pool (a saturated queue);
 * - unavailable: every op, while the service stops (a REST front thread that lost the main thread, a gRPC stream
 *   message after a failed one) and for ops that reach outside the process (`profileProvider`);
 * - everything else the op declares in `refusals` (its gate's and its run's own codes).
 * What only one transport adds (a REST body over its size, a malformed multipart upload) is that transport's
 * (transport/openapi/statuses.ts). 500 internal is a bug, never part of a contract.
 */
import { errorCodes, type ErrorCode } from '../../errors.js';
import type { AnyOp } from './op.js';

/** A cost or row function that takes no input is a constant: evaluate it instead of guessing. */
function constantOf<T>(declared: (...args: never[]) => T): T | undefined {
  return declared.length === 0 ? (declared as () => T)() : undefined;
}

function spendsCredits(op: AnyOp): boolean {
  const cost = constantOf(op.cost);
  return cost === undefined || Object.values(cost).some((amount) => (amount ?? 0) > 0);
}

function hasRowWork(op: AnyOp): boolean {
  if (op.runsOn === 'main') return false; // never sent to the pool, so never refused by a full queue
  const rows = constantOf(op.rows);
  return rows === undefined || rows > 0;
}

/** A country field in the input: an unknown country is the spec's 400 "Invalid country". */
function takesCountry(op: AnyOp): boolean {
  return Object.hasOwn((op.input as { properties?: object }).properties ?? {}, 'country');
}

function accessCodes(op: AnyOp): ErrorCode[] {
  if (op.access === 'none') return [];
  const codes: ErrorCode[] = ['unauthenticated', 'payment_required'];
  if (spendsCredits(op)) {
    codes.push('credits_exhausted');
    codes.push(...Object.values(op.exhaustedErrors ?? {}));
  }
  if (op.access === 'key_optional') codes.push('rate_limited');
  return codes;
}

/** The codes an operation can answer with over any transport, in `errorCodes` order. */
export function refusalsOf(op: AnyOp): ErrorCode[] {
  const codes = new Set<ErrorCode>(['invalid_argument']);
  if (takesCountry(op)) codes.add('invalid_country');
  for (const code of accessCodes(op)) codes.add(code);
  if (op.idempotency !== undefined) codes.add('conflict');
  if (hasRowWork(op)) codes.add('overloaded');
  codes.add('unavailable');
  for (const code of op.refusals ?? []) codes.add(code);
  return errorCodes.filter((code) => codes.has(code));
}

const cache = new WeakMap<AnyOp, ReadonlySet<ErrorCode>>();

/** Whether the op declares `code` (cached per op: the service asks on every refused request). */
export function declares(op: AnyOp, code: ErrorCode): boolean {
  let codes = cache.get(op);
  if (codes === undefined) {
    codes = new Set(refusalsOf(op));
    cache.set(op, codes);
  }
  return codes.has(code);
}
