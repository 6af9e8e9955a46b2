/**
 * The envelope of POST /api/v1/validate, part by part, in one process: body read, schema check, registry version
 * read, HTTP write. Each part runs as it did before (a copy of the former code, kept here as the reference) and as
 * it does now, in alternating rounds in the same process (the VM's speed drifts over minutes, so only figures
 * taken side by side compare). CPU µs per request from process.cpuUsage, median of the rounds; the HTTP write is
 * timed around the synchronous send (status, headers, body into the socket) on a real uWS server under wrk.
 * Run: `node --import tsx bench/envelope-parts.ts` (prints JSON; RESULTS.md "Envelope trim" is written by hand).
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { HttpResponse } from 'uWebSockets.js';
import type { TSchema } from '@sinclair/typebox';
import { noRegistryContext } from '../src/domain/iban/national/types.js';
import { AppError } from '../src/errors.js';
import { limits } from '../src/limits.js';
import { ibanValidate } from '../src/ops/iban/validate.js';
import type { AnyOp } from '../src/ops/framework/op.js';
import {
  compileAjvValidator,
  compileInputValidator,
} from '../src/ops/framework/input-validation.js';
import { readBody } from '../src/transport/http/body.js';
import { bodyDeadlineMessage, watchBodyDeadline } from '../src/transport/http/body-deadline.js';
import { claimAnswer, jsonType, send, type Exchange } from '../src/transport/http/respond.js';
import { uwsBuild } from '../src/transport/http/uws-build.js';
import { TurnVersion } from '../src/service/registry-version.js';
import { openBenchDirectory } from './lib/directory.js';
import { chunks, mixedIbans } from './lib/iban-list.js';
import { wrkPath } from './lib/machine.js';
import { freePort } from './lib/proc.js';
import { median, round } from './lib/results.js';

const settings = {
  rounds: 7,
  requestsPerRound: 5_000,
  /** A body of many chunks: about what the 256 KB JSON limit allows, in the 64 KB pieces loopback TCP delivers. */
  largeBodyBytes: 200_000,
  chunkBytes: 64 * 1024,
  writeRounds: 6,
  writeSeconds: 2,
  connections: 32,
} as const;

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** Before and after of one part, measured in alternating rounds. */
interface PartFigures {
  readonly before: number;
  readonly after: number;
  readonly beforeRounds: readonly number[];
  readonly afterRounds: readonly number[];
}

async function alternate(
  before: (index: number) => unknown,
  after: (index: number) => unknown,
  requests: number = settings.requestsPerRound,
): Promise<PartFigures> {
  const rounds = { before: [] as number[], after: [] as number[] };
  for (let round = 0; round <= settings.rounds; round++) {
    for (const [name, run] of [
      ['before', before],
      ['after', after],
    ] as const) {
      const started = cpuMicros();
      for (let index = 0; index < requests; index++) {
        const outcome = run(index);
        if (outcome instanceof Promise) await outcome;
      }
      // Round 0 warms both up (V8 compiles the hot paths); it is not counted.
      if (round > 0) rounds[name].push((cpuMicros() - started) / requests);
    }
  }
  return {
    before: round(median(rounds.before), 2),
    after: round(median(rounds.after), 2),
    beforeRounds: rounds.before.map((value) => round(value, 2)),
    afterRounds: rounds.after.map((value) => round(value, 2)),
  };
}

// ---- body read ------------------------------------------------------------------------------------------

/** The former body read (src/transport/http/body.ts before): each chunk copied on its own, joined by a concat. */
function readBodyBefore(
  exchange: Exchange,
  contentLength: number | null,
  bytesMax: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (contentLength !== null && contentLength > bytesMax) {
      reject(new AppError('payload_too_large', `Body of ${contentLength} bytes is too large`));
      return;
    }
    const parts: Buffer[] = [];
    let received = 0;
    let refused = false;
    const unwatch = watchBodyDeadline(() => {
      refused = true;
      exchange.closeConnection = true;
      exchange.onAbort = undefined;
      reject(new AppError('request_timeout', bodyDeadlineMessage()));
    });
    exchange.onAbort = () => {
      unwatch();
      reject(new AppError('invalid_argument', 'Client closed the connection'));
    };
    exchange.res.onData((chunk, isLast) => {
      if (refused || exchange.aborted) return;
      received += chunk.byteLength;
      if (received > bytesMax) {
        refused = true;
        unwatch();
        reject(new AppError('payload_too_large', `Body exceeds the ${bytesMax}-byte limit`));
        return;
      }
      parts.push(Buffer.from(chunk.slice(0)));
      if (isLast) {
        exchange.onAbort = undefined;
        unwatch();
        resolve(parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, received));
        parts.length = 0;
      }
    });
  });
}

/** A response whose onData hands over the body's chunks at once, in fresh ArrayBuffers as uWS would. */
function exchangeDelivering(pieces: readonly ArrayBuffer[]): Exchange {
  const res = {
    onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void) {
      pieces.forEach((piece, index) => handler(piece, index === pieces.length - 1));
      return res;
    },
  } as unknown as HttpResponse;
  return { res, requestId: 'bench', startedMs: 0, aborted: false };
}

function piecesOf(body: string, size: number): ArrayBuffer[] {
  const bytes = Buffer.from(body);
  const pieces: ArrayBuffer[] = [];
  for (let at = 0; at < bytes.length; at += size) {
    const piece = bytes.subarray(at, at + size);
    pieces.push(piece.buffer.slice(piece.byteOffset, piece.byteOffset + piece.byteLength));
  }
  return pieces;
}

async function bodyRead(bodies: readonly string[]): Promise<Record<string, PartFigures>> {
  const large = JSON.stringify({ ibans: [], padding: 'x'.repeat(settings.largeBodyBytes) });
  const cases = {
    'validate body (2.7 KB, one chunk)': bodies.map((body) => piecesOf(body, settings.chunkBytes)),
    [`${Math.round(large.length / 1000)} KB body in 64 KB chunks`]: [
      piecesOf(large, settings.chunkBytes),
    ],
  };
  const figures: Record<string, PartFigures> = {};
  for (const [name, list] of Object.entries(cases)) {
    const lengthOf = list.map((pieces) => pieces.reduce((sum, piece) => sum + piece.byteLength, 0));
    const same = await readBody(
      exchangeDelivering(list[0] as ArrayBuffer[]),
      lengthOf[0] ?? 0,
      1e9,
    );
    const old = await readBodyBefore(
      exchangeDelivering(list[0] as ArrayBuffer[]),
      lengthOf[0] ?? 0,
      1e9,
    );
    if (!same.equals(old)) throw new Error(`${name}: the two reads differ`);
    figures[name] = await alternate(
      (index) =>
        readBodyBefore(
          exchangeDelivering(list[index % list.length] as ArrayBuffer[]),
          lengthOf[index % list.length] ?? null,
          limits.httpJsonBodyBytesMax,
        ),
      (index) =>
        readBody(
          exchangeDelivering(list[index % list.length] as ArrayBuffer[]),
          lengthOf[index % list.length] ?? null,
          limits.httpJsonBodyBytesMax,
        ),
    );
  }
  return figures;
}

// ---- schema check ---------------------------------------------------------------------------------------

async function schemaCheck(bodies: readonly string[]): Promise<PartFigures> {
  const op = ibanValidate as unknown as AnyOp;
  const ajvOnly = compileAjvValidator(op);
  const served = compileInputValidator(op);
  const inputs = bodies.map((body) => JSON.parse(body) as unknown);
  let sink = 0;
  const figures = await alternate(
    (index) => (sink += ajvOnly(inputs[index % inputs.length]) === undefined ? 0 : 1),
    (index) => (sink += served(inputs[index % inputs.length]) === undefined ? 0 : 1),
  );
  if (sink === 0 || (op.input as TSchema).type !== 'object') throw new Error('nothing validated');
  return figures;
}

// ---- registry version read ------------------------------------------------------------------------------

/**
 * Before: every request read the version from LMDB (a read transaction renewed, one get). After: the first
 * request of an event-loop turn reads it, the others of that turn reuse it; `perTurn` requests share a turn.
 */
async function versionRead(perTurn: number): Promise<PartFigures> {
  const bench = await openBenchDirectory();
  try {
    const turnVersion = new TurnVersion(bench.directory);
    let sink = 0;
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    const figures = await alternate(
      async (index) => {
        sink += bench.directory.syncVersion();
        if (index % perTurn === perTurn - 1) await turn();
      },
      async (index) => {
        sink += turnVersion.read();
        if (index % perTurn === perTurn - 1) await turn();
      },
    );
    if (sink < 0) throw new Error('unreachable');
    return figures;
  } finally {
    await bench.close();
  }
}

// ---- HTTP write -----------------------------------------------------------------------------------------

/** The former send: status always written, the common headers one writeHeader each. */
function sendBefore(
  exchange: Exchange,
  status: string,
  contentType: string,
  body: Uint8Array,
  headers: Readonly<Record<string, string>>,
): void {
  if (!claimAnswer(exchange)) return;
  exchange.res.cork(() => {
    exchange.res.writeStatus(status);
    exchange.res.writeHeader('content-type', contentType);
    exchange.res.writeHeader('x-request-id', exchange.requestId);
    exchange.res.writeHeader('x-content-type-options', 'nosniff');
    exchange.res.writeHeader('cache-control', 'no-store');
    for (const name in headers) exchange.res.writeHeader(name, headers[name] as string);
    exchange.res.end(body, false);
  });
}

interface WriteFigures {
  /** Wall µs inside the send call (it does not yield: native header writes, the copy and the socket write). */
  readonly beforeUs: readonly number[];
  readonly afterUs: readonly number[];
  readonly before: number;
  readonly after: number;
  /** This process's CPU µs per request over each wrk run: all of uWS's work for it, the send included. */
  readonly beforeCpuUs: readonly number[];
  readonly afterCpuUs: readonly number[];
  readonly beforeCpu: number;
  readonly afterCpu: number;
  readonly answerBytes: number;
}

async function runWrkOn(port: number, path: string): Promise<void> {
  const wrk = wrkPath();
  if (wrk === null) throw new Error('the HTTP write part needs wrk');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      wrk,
      [
        '-t1',
        `-c${settings.connections}`,
        `-d${settings.writeSeconds}s`,
        `http://127.0.0.1:${port}${path}`,
      ],
      { stdio: 'ignore' },
    );
    child.once('error', reject);
    child.once('exit', () => resolve());
  });
}

async function httpWrite(answer: Uint8Array): Promise<WriteFigures> {
  const app = uwsBuild().module.App();
  const spent = { before: 0n, after: 0n };
  const count = { before: 0, after: 0 };
  const route = (name: 'before' | 'after') => (res: HttpResponse) => {
    const exchange: Exchange = {
      res,
      requestId: 'req_0123456789abcdef',
      startedMs: 0,
      aborted: false,
    };
    res.onAborted(() => (exchange.aborted = true));
    const started = process.hrtime.bigint();
    if (name === 'before') sendBefore(exchange, '200 OK', jsonType, answer, {});
    else send(exchange, '200 OK', jsonType, answer, {});
    spent[name] += process.hrtime.bigint() - started;
    count[name]++;
  };
  app.get('/before', route('before'));
  app.get('/after', route('after'));
  const port = await freePort();
  const socket = await new Promise<unknown>((resolve, reject) =>
    app.listen('127.0.0.1', port, (listening) =>
      listening ? resolve(listening) : reject(new Error(`no listen on ${port}`)),
    ),
  );
  const rounds = { before: [] as number[], after: [] as number[] };
  const cpuRounds = { before: [] as number[], after: [] as number[] };
  try {
    for (let round = 0; round <= settings.writeRounds; round++) {
      for (const name of ['before', 'after'] as const) {
        spent[name] = 0n;
        count[name] = 0;
        const cpuBefore = cpuMicros();
        await runWrkOn(port, `/${name}`);
        const cpu = cpuMicros() - cpuBefore;
        if (round === 0) continue;
        rounds[name].push(Number(spent[name]) / 1000 / Math.max(1, count[name]));
        cpuRounds[name].push(cpu / Math.max(1, count[name]));
      }
    }
  } finally {
    uwsBuild().module.us_listen_socket_close(socket as never);
  }
  return {
    beforeUs: rounds.before.map((value) => round(value, 2)),
    afterUs: rounds.after.map((value) => round(value, 2)),
    before: round(median(rounds.before), 2),
    after: round(median(rounds.after), 2),
    beforeCpuUs: cpuRounds.before.map((value) => round(value, 2)),
    afterCpuUs: cpuRounds.after.map((value) => round(value, 2)),
    beforeCpu: round(median(cpuRounds.before), 2),
    afterCpu: round(median(cpuRounds.after), 2),
    answerBytes: answer.byteLength,
  };
}

/** A 35 KB answer like the paid 100-row validate answer (its bytes do not matter to the write, only its size). */
function answerLike(): Uint8Array {
  return Buffer.from(
    JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ row: i, pad: 'x'.repeat(330) }))),
  );
}

export async function runEnvelopeParts(): Promise<unknown> {
  const loadAverageAtStart = loadavg().map((value) => round(value, 2));
  const bodies = chunks(mixedIbans(10_000, noRegistryContext), 100).map((ibans) =>
    JSON.stringify({ ibans }),
  );
  // --only=body,schema,version,write: some parts only (the HTTP write needs wrk and takes the longest).
  const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
  const wanted = (part: string) => only === undefined || only.split(',').includes(part);
  const bodyFigures = wanted('body') ? await bodyRead(bodies) : undefined;
  const schema = wanted('schema') ? await schemaCheck(bodies) : undefined;
  const version = wanted('version')
    ? { 'one request per turn': await versionRead(1), 'four per turn': await versionRead(4) }
    : undefined;
  const write = wanted('write') ? await httpWrite(answerLike()) : undefined;
  return {
    settings,
    loadAverageAtStart,
    loadAverageAtEnd: loadavg().map((value) => round(value, 2)),
    bodyRead: bodyFigures,
    schemaCheck: schema,
    versionRead: version,
    httpWrite: write,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await runEnvelopeParts(), null, 2));
}
