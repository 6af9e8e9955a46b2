/**
 * The node:http side of the REST peers (bench/baseline-server.ts, bench/fair-peer-server.ts): POST with body
 * {"ibans": [...]} -> 200 and the JSON the peer computes for the list; the body capped as ibanqa caps it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** Same body cap as ibanqa's JSON routes (src/limits.ts httpJsonBodyBytesMax). */
const bodyBytesMax = 64 * 1024;

function answer(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

function handler(answerOf: (ibans: string[]) => string) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    if (request.method !== 'POST') return answer(response, 405, '{"error":"method_not_allowed"}');
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= bodyBytesMax) chunks.push(chunk);
    });
    request.on('end', () => {
      if (size > bodyBytesMax) return answer(response, 413, '{"error":"payload_too_large"}');
      let ibans: unknown;
      try {
        ibans = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { ibans?: unknown }).ibans;
      } catch {
        return answer(response, 400, '{"error":"invalid_json"}');
      }
      if (!Array.isArray(ibans) || !ibans.every((iban): iban is string => typeof iban === 'string'))
        return answer(response, 400, '{"error":"ibans must be an array of strings"}');
      answer(response, 200, answerOf(ibans));
    });
  };
}

/** Listens on 127.0.0.1:`port` (0: any) and prints "`banner` <port>" once it does; stops on SIGTERM and SIGINT. */
export function serveIbans(
  port: number,
  banner: string,
  answerOf: (ibans: string[]) => string,
): void {
  const server = createServer(handler(answerOf));
  server.listen(port, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(
      `${banner} ${typeof address === 'object' && address !== null ? address.port : port}\n`,
    );
  });
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
