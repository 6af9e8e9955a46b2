// @ts-check
// Calls of the public REST API with the tab's key. The key lives in sessionStorage only: it is sent in the
// X-API-Key header, never put into a URL, a cookie or the browser console.

const storageName = 'ibanqa.apiKey';
const apiBase = '/api/v1';

/** @returns {string | null} */
export function currentKey() {
  return sessionStorage.getItem(storageName);
}

/** @param {string} key */
export function rememberKey(key) {
  sessionStorage.setItem(storageName, key);
}

export function forgetKey() {
  sessionStorage.removeItem(storageName);
}

/** A refusal of the API: its Error object (error, message, request_id) and the HTTP status. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   * @param {string | null} requestId
   */
  constructor(status, code, message, requestId) {
    super(message);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
  }
}

/**
 * @param {Response} response
 * @returns {Promise<ApiError>}
 */
async function refusalOf(response) {
  const requestId = response.headers.get('x-request-id');
  /** @type {any} */
  let body = null;
  try {
    body = await response.json();
  } catch {
    // not a JSON Error object (a proxy in between, say): the status line is all there is
  }
  const code = typeof body?.error === 'string' ? body.error : `HTTP ${response.status}`;
  const message = typeof body?.message === 'string' ? body.message : response.statusText;
  const id = typeof body?.request_id === 'string' ? body.request_id : requestId;
  return new ApiError(response.status, code, message, id);
}

/**
 * One call: JSON in (or a FormData upload), JSON out; a non-2xx answer throws its ApiError.
 * @param {string} method
 * @param {string} path under /api/v1
 * @param {unknown} [body]
 * @returns {Promise<{ status: number, body: any }>}
 */
export async function api(method, path, body) {
  const key = currentKey();
  if (key === null)
    throw new ApiError(0, 'No API key', 'Enter an API key on the API key page first.', null);
  /** @type {Record<string, string>} */
  const headers = { 'x-api-key': key, accept: 'application/json' };
  /** @type {RequestInit} */
  const init = {
    method,
    headers,
    credentials: 'omit',
    cache: 'no-store',
    referrerPolicy: 'no-referrer',
  };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(`${apiBase}${path}`, init);
  } catch {
    throw new ApiError(0, 'Network error', 'The service did not answer; is it running?', null);
  }
  if (!response.ok) throw await refusalOf(response);
  return { status: response.status, body: await response.json() };
}
