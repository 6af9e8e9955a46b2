/**
 * The peer for the REST load test: plain node:http + ibantools, no framework, no auth, no metering.
 * POST with body {"ibans": [...]} -> 200 and a JSON array of { iban, valid } in input order.
 * Usage: node --import tsx bench/baseline-server.ts [port]  (prints "baseline listening <port>").
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isValidIBAN } from 'ibantools';

/** Same body cap as ibanqa's JSON routes (src/limits.ts httpJsonBodyBytesMax). */
const bodyBytesMax = 64 * 1024;

function answer(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

function handle(request: IncomingMessage, response: ServerResponse): void {
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
    if (!Array.isArray(ibans) || !ibans.every((iban): iban is string => typeof iban === 'string')) {
      return answer(response, 400, '{"error":"ibans must be an array of strings"}');
    }
    answer(
      response,
      200,
      JSON.stringify(ibans.map((iban) => ({ iban, valid: isValidIBAN(iban) }))),
    );
  });
}

const port = Number(process.argv[2] ?? 0);
const server = createServer(handle);
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(
    `baseline listening ${typeof address === 'object' && address !== null ? address.port : port}\n`,
  );
});
const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
