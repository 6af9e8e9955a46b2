import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { AppError } from '../../errors.js';
import type { UploadRules } from '../../ops/framework/op.js';
import type { CallIdentity } from '../../service/execute.js';
import { uploadTooLarge } from '../upload-rules.js';
import { portableAnswer, type HttpAnswer, type HttpCalls } from '../http/calls.js';
import type { HttpMetrics } from '../http/metrics.js';
import { errorHeaders } from '../http/respond.js';
import { httpStatusOf } from '../http/status.js';
import { newRequestId } from '../http/request-id.js';
import { answeredError } from '../logged-error.js';
import { errorBody } from '../wire-errors.js';
import { filenameSuffix, type McpTool } from './tools.js';

/** What a tool call runs through: the REST front's calls (so the same service path), and who calls. */
export interface McpCallDeps {
  readonly calls: HttpCalls;
  readonly identity: CallIdentity;
  readonly logger: Logger;
  /** Where each tool call is counted by its op (transport mcp); none over stdio, which has no /metrics. */
  readonly metrics?: HttpMetrics;
}

const base64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * An upload tool's arguments as the multipart parser gives them to the op: the text fields, and the file decoded
 * into the part of the op's upload field. The op's byte cap is the transport's to check, as multipart and the gRPC
 * stream check it: before decoding, from the encoded length.
 */
function uploadInput(rules: UploadRules, args: Record<string, unknown>): Record<string, unknown> {
  const { [rules.field]: encoded, [`${rules.field}${filenameSuffix}`]: filename, ...text } = args;
  if (encoded === undefined) return { ...text, files: [] };
  if (typeof encoded !== 'string' || encoded.length % 4 !== 0 || !base64.test(encoded))
    throw new AppError('invalid_argument', `${rules.field} must be a base64 string`);
  if (filename !== undefined && typeof filename !== 'string')
    throw new AppError('invalid_argument', `${rules.field}${filenameSuffix} must be a string`);
  const padding = encoded.endsWith('==') ? 2 : encoded.endsWith('=') ? 1 : 0;
  if ((encoded.length / 4) * 3 - padding > rules.maxBytes) throw uploadTooLarge(rules);
  const bytes = Buffer.from(encoded, 'base64');
  return { ...text, files: [{ field: rules.field, filename: filename ?? '', bytes }] };
}

/** The status line's number ('202 Accepted' -> 202). */
function statusNumber(status: string): number {
  return Number.parseInt(status, 10);
}

/**
 * The REST answer as a tool result: the text is the REST body byte for byte; a JSON body is also the structured
 * content (an array wrapped as `rows`, as gRPC wraps it, since structured content is an object). CSV stays text.
 */
function successOf(answer: HttpAnswer, requestId: string): CallToolResult {
  const { body, contentType } = portableAnswer(answer);
  const text = typeof body === 'string' ? body : Buffer.from(body as Uint8Array).toString('utf8');
  const meta = { request_id: requestId, status: statusNumber(answer.status) };
  if (!contentType.startsWith('application/json'))
    return { content: [{ type: 'text', text }], _meta: { ...meta, content_type: contentType } };
  const json: unknown = JSON.parse(text);
  const structured =
    json !== null && typeof json === 'object' && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : { rows: json };
  return { content: [{ type: 'text', text }], structuredContent: structured, _meta: meta };
}

/**
 * A refusal as a tool error: the REST Error object (error, message, request_id and the code's fields, such as a
 * 429's credit_kind, limit, remaining and resets_at) with the REST status, and the headers REST would add.
 */
export function toolErrorOf(error: AppError, requestId: string): CallToolResult {
  const headers = errorHeaders(error);
  const structured: Record<string, unknown> = {
    ...errorBody(error, requestId),
    status: statusNumber(httpStatusOf[error.code]),
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
  };
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
    _meta: { request_id: requestId, status: structured.status },
  };
}

/** Runs one tool call through the REST front's path (Service.execute), answering a refusal as a tool error. */
export async function callTool(
  tool: McpTool,
  args: Record<string, unknown>,
  deps: McpCallDeps,
): Promise<CallToolResult> {
  const requestId = newRequestId();
  const startedMs = performance.now();
  let outcome = 'internal';
  try {
    const raw = tool.upload === undefined ? args : uploadInput(tool.upload, args);
    const answer = await deps.calls.answer(tool.op, raw, deps.identity);
    outcome = answer.status;
    return successOf(answer, requestId);
  } catch (thrown) {
    const refusal = refusalOf(thrown, deps, requestId, tool.op.name);
    outcome = refusal.code;
    return toolErrorOf(refusal, requestId);
  } finally {
    deps.metrics?.observe(tool.op.name, outcome, 'mcp', startedMs);
  }
}

/** What a failed call answers (a bug logged with its request id and op, as the REST front logs it). */
export function refusalOf(thrown: unknown, deps: McpCallDeps, requestId: string, op: string) {
  return answeredError(thrown, deps.logger, { requestId, op, transport: 'mcp' });
}
