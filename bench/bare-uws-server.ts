/**
 * The wire limit for the REST load test: a bare uWebSockets.js server (the build the service loads) that reads
 * each POST body in full and answers with the exact status, headers and body bytes ibanqa returned for that
 * body, captured once before the load. No parsing, no validation, no metering: what is left is the HTTP work
 * both servers must do, so ibanqa's throughput as a fraction of this one is the share the wire allows.
 * Usage: node --import tsx bench/bare-uws-server.ts <port> <captured.json>  (prints "bare uws listening <port>").
 * captured.json: [{ body, status, headers: [[name, value]...], response }] as written by bench/rest-load.ts.
 */
import { readFileSync } from 'node:fs';
import { uwsBuild } from '../src/transport/http/uws-build.js';

export interface CapturedAnswer {
  readonly body: string;
  readonly status: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly response: string;
}

interface Answer {
  readonly status: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly bytes: Buffer;
}

const [portArgument, capturedFile] = process.argv.slice(2);
if (capturedFile === undefined) throw new Error('usage: bare-uws-server.ts <port> <captured.json>');
const answers = new Map<string, Answer>();
for (const captured of JSON.parse(readFileSync(capturedFile, 'utf8')) as CapturedAnswer[]) {
  answers.set(captured.body, {
    status: captured.status,
    headers: captured.headers,
    bytes: Buffer.from(captured.response),
  });
}
const notFound = Buffer.from('{"error":"not_captured"}');

const uws = uwsBuild().module;
const app = uws.App().post('/*', (res) => {
  let aborted = false;
  const chunks: Buffer[] = [];
  res.onAborted(() => {
    aborted = true;
  });
  res.onData((chunk, last) => {
    // uWS reuses the chunk's memory after this callback returns: copy it.
    chunks.push(Buffer.from(new Uint8Array(chunk)));
    if (!last || aborted) return;
    const answer = answers.get(Buffer.concat(chunks).toString('utf8'));
    res.cork(() => {
      if (answer === undefined) {
        res.writeStatus('404 Not Found').end(notFound);
        return;
      }
      res.writeStatus(answer.status);
      for (const [name, value] of answer.headers) res.writeHeader(name, value);
      res.end(answer.bytes);
    });
  });
});

app.listen('127.0.0.1', Number(portArgument ?? 0), (socket) => {
  if (socket === false) throw new Error(`bare uws could not listen on ${portArgument}`);
  process.stdout.write(`bare uws listening ${uws.us_socket_local_port(socket as never)}\n`);
});
const stop = () => process.exit(0);
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
