/**
 * The HTTP statuses one operation can really answer with, derived from its declaration, so the contract
 * lists what a client will meet (as the spec does per endpoint) instead of every status the service knows:
 * - 400: every op validates its input (unknown fields included, in a body or a query string), and an op
 *   with a country field answers "Invalid country";
 * - 401 and 402: every keyed op (a missing or unknown key; an expired 24h Pass is 402 on every call);
 * - 413: ops that read a JSON body;
 * - 408: ops that read a body (JSON or an upload) that has not arrived by the body deadline;
 * - 429: ops that spend credits, and keyless /validate (its per-IP allowance);
 * - 409: idempotent ops (a request_id reused with another body);
 * - 503: ops with row work, which may run in the worker pool (saturated queue);
 * - everything else the op declares in `refusals` (its gate's and its run's own codes).
 * 405 (a known path, another method) and 500 belong to the router and to bugs, not to an operation.
 */
import type { ErrorCode } from '../../errors.js';
import type { AnyOp, HttpOp } from '../../ops/framework/op.js';
import { httpStatusOf } from '../http/status.js';

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

/** The error codes an operation can answer with, in errorCodes order per status. */
export function errorCodesOf(op: HttpOp): ErrorCode[] {
  const codes = new Set<ErrorCode>(['invalid_argument']);
  if (takesCountry(op)) codes.add('invalid_country');
  if (op.access !== 'none') {
    codes.add('unauthenticated');
    codes.add('payment_required');
  }
  if (op.http.inputFrom === 'body') codes.add('payload_too_large');
  if (op.http.inputFrom !== 'query') codes.add('request_timeout');
  if (op.access !== 'none' && spendsCredits(op)) codes.add('credits_exhausted');
  if (op.access === 'key_optional') codes.add('rate_limited');
  if (op.idempotency !== undefined) codes.add('conflict');
  if (hasRowWork(op)) codes.add('overloaded');
  for (const code of op.refusals ?? []) codes.add(code);
  return [...codes];
}

/** Status (3 digits) -> the codes behind it, ascending by status. */
export function errorStatusesOf(op: HttpOp): Map<string, ErrorCode[]> {
  const byStatus = new Map<string, ErrorCode[]>();
  for (const code of errorCodesOf(op)) {
    const status = httpStatusOf[code].slice(0, 3);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a.localeCompare(b)));
}
