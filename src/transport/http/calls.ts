import type { HttpOp } from '../../contract/op.js';
import type { CallIdentity, ExecuteOutcome, Service } from '../../service/execute.js';
import { renderBody, RenderedBody } from '../../render/body.js';
import { outputJsonBytes } from '../../render/json-bytes.js';
import { csvType, jsonType } from './respond.js';

/**
 * A JSON value the front serializes as it writes: into the shared scratch, handed to uWS (which copies it)
 * in the same synchronous step, so no other answer can reuse the scratch in between.
 */
export interface JsonToWrite {
  readonly json: unknown;
}

/** A REST answer, complete: what the front writes after the service settled. */
export interface HttpAnswer {
  readonly status: string;
  readonly contentType: string;
  readonly body: string | Uint8Array | JsonToWrite;
  readonly headers: Readonly<Record<string, string>>;
}

/** An answer that can cross threads: a JSON body serialized into bytes of its own. */
export function portableAnswer(answer: HttpAnswer): HttpAnswer {
  return isJsonToWrite(answer.body)
    ? { ...answer, body: outputJsonBytes(answer.body.json) }
    : answer;
}

export function isJsonToWrite(body: HttpAnswer['body']): body is JsonToWrite {
  return typeof body === 'object' && !(body instanceof Uint8Array);
}

/** Runs one REST call to its answer (the service, on this thread or, for a front thread, partly on the main thread). */
export interface HttpCalls {
  answer(op: HttpOp, raw: unknown, identity: CallIdentity): Promise<HttpAnswer>;
}

/** The status line and body of an executed call: the one place a REST success is shaped. */
export async function answerOf(op: HttpOp, outcome: ExecuteOutcome): Promise<HttpAnswer> {
  const code = op.successStatusOf?.(outcome.output) ?? op.successStatus;
  const status =
    code === undefined
      ? '200 OK'
      : `${code} ${code === 200 ? 'OK' : code === 201 ? 'Created' : 'Accepted'}`;
  if (!(outcome.output instanceof RenderedBody) && outcome.format === 'json') {
    return {
      status,
      contentType: jsonType,
      body: { json: outcome.output },
      headers: outcome.headers,
    };
  }
  const rendered =
    outcome.output instanceof RenderedBody
      ? outcome.output
      : await renderBody(op, outcome.output, outcome.format);
  return {
    status,
    contentType: rendered.format === 'csv' ? csvType : jsonType,
    body: rendered.body,
    headers: outcome.headers,
  };
}

/** Calls run by this thread's service. */
export function serviceCalls(service: Pick<Service, 'execute'>): HttpCalls {
  return {
    answer: async (op, raw, identity) =>
      answerOf(op, await service.execute(op, raw, identity, { serialized: true })),
  };
}
