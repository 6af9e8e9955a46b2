import type { HttpRequest } from 'uWebSockets.js';
import { AppError } from '../../errors.js';

/**
 * Message framing a proxy in front might read differently from uWS (RFC 9112 §6.3: request smuggling).
 * The uWS build in use frames by the first Content-Length and accepts any Transfer-Encoding that ends
 * in chunked; these requests are refused and the connection closed, since its framing is in doubt.
 */
export function framingProblem(req: HttpRequest): string | undefined {
  const transferEncoding = req.getHeader('transfer-encoding');
  const contentLength = req.getHeader('content-length');
  if (transferEncoding !== '' && transferEncoding.trim().toLowerCase() !== 'chunked') {
    return `Transfer-Encoding ${JSON.stringify(transferEncoding)} is refused: only chunked is accepted`;
  }
  if (contentLength === '') return undefined;
  if (transferEncoding !== '')
    return 'A request may not carry both Content-Length and Transfer-Encoding';
  if (!/^\d{1,15}$/.test(contentLength)) return 'Content-Length must be decimal digits';
  let count = 0;
  req.forEach((name) => {
    if (name === 'content-length') count++;
  });
  return count > 1 ? 'Content-Length appears more than once' : undefined;
}

/** Path parameters arrive percent-encoded; a bad escape is the client's error, never a thrown URIError. */
export function decodePathParameter(name: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new AppError(
      'invalid_argument',
      `Path parameter '${name}' is not valid percent-encoded UTF-8`,
    );
  }
}
