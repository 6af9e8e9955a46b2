/**
 * The HTTP statuses one operation can answer with over REST: the codes its declaration produces
 * (ops/framework/refusals.ts, which the service also holds every answer to) plus what the REST front itself adds
 * for the op's input: 413 for a JSON body over its size, the multipart codes for an upload, 408 for a body (JSON or
 * upload) that has not arrived by the body deadline. 405 (a known path,
 * another method) and 404 for an unknown path belong to the router, 500 to bugs: none is an operation's.
 */
import { errorCodes, type ErrorCode } from '../../errors.js';
import type { HttpOp } from '../../ops/framework/op.js';
import { refusalsOf } from '../../ops/framework/refusals.js';
import { httpStatusOf } from '../http/status.js';
import { uploadRulesOf } from '../upload-rules.js';

/** What the REST front answers for an op's input before the service sees it (transport/http/body.ts, multipart.ts). */
function restInputCodes(op: HttpOp): ErrorCode[] {
  if (op.http.inputFrom === 'body') return ['payload_too_large', 'request_timeout'];
  if (op.http.inputFrom === 'multipart')
    return ['multipart_malformed', uploadRulesOf(op).tooLarge, 'request_timeout'];
  return [];
}

/** The error codes an operation can answer with over REST, in errorCodes order. */
export function errorCodesOf(op: HttpOp): ErrorCode[] {
  const codes = new Set<ErrorCode>([...refusalsOf(op), ...restInputCodes(op)]);
  return errorCodes.filter((code) => codes.has(code));
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
