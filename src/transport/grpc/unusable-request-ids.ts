import type { Server } from '@grpc/grpc-js';
import type { Http2Server, IncomingHttpHeaders } from 'node:http2';

/**
 * Set on a call whose x-request-id was not printable ASCII. grpc-js drops such a metadata value without a trace
 * (and logs an error line per call), so the service would answer with a generated id and never say the client's
 * was replaced; this keeps the fact, under a name only the service's own header check sets.
 */
export const unusableRequestIdKey = 'ibanqa-unusable-request-id';

const printableAscii = /^[\x20-\x7e]*$/;

/**
 * Marks calls whose x-request-id grpc-js would drop, before grpc-js reads the headers: a listener placed ahead of
 * grpc-js's own on the HTTP/2 servers it keeps (`http2Servers`, filled by bindAsync: call this after it). Without
 * that map nothing is marked, and such calls still get a generated id.
 */
export function markUnusableRequestIds(server: Server): void {
  const servers = (server as unknown as { http2Servers?: unknown }).http2Servers;
  if (!(servers instanceof Map)) return;
  for (const http2Server of servers.keys() as IterableIterator<Http2Server>) {
    http2Server.prependListener('stream', (_stream: unknown, headers: IncomingHttpHeaders) => {
      const sent = headers['x-request-id'];
      if (typeof sent !== 'string' || printableAscii.test(sent)) return;
      delete headers['x-request-id'];
      headers[unusableRequestIdKey] = '1';
    });
  }
}
