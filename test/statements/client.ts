import { call, type JsonReply } from '../helpers/service.js';

export interface UploadOptions {
  readonly key?: string;
  readonly filename?: string;
  readonly expectedBank?: string;
  readonly path?: string;
}

/** A real multipart upload through undici's FormData. */
export async function upload(
  base: string,
  bytes: Uint8Array | null,
  options: UploadOptions = {},
): Promise<JsonReply> {
  const form = new FormData();
  if (bytes !== null)
    form.append(
      'statement_file',
      new Blob([new Uint8Array(bytes)]),
      options.filename ?? 'statement.pdf',
    );
  if (options.expectedBank !== undefined) form.append('expected_bank', options.expectedBank);
  return postForm(base, form, options);
}

export async function postForm(
  base: string,
  form: FormData,
  options: UploadOptions = {},
): Promise<JsonReply> {
  const headers: Record<string, string> =
    options.key === undefined ? {} : { 'x-api-key': options.key };
  const response = await fetch(`${base}${options.path ?? '/statement-validator/analyze'}`, {
    method: 'POST',
    body: form,
    headers,
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body, text, headers: response.headers };
}

/** Polls until the review leaves pending_analysis (every 100 ms, at most `timeoutMs`). */
export async function settle(
  base: string,
  key: string,
  reviewId: string,
  timeoutMs = 60_000,
): Promise<JsonReply> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await call(base, `/statement-validator/review/${reviewId}`, { key });
    if (reply.status !== 202 || Date.now() > deadline) return reply;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
