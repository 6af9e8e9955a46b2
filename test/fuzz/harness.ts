import { Client, credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import fc from 'fast-check';
import type { PlanId } from '../../src/domain/plans/plans.js';
import type { AnyOp } from '../../src/contract/op.js';
import { ops } from '../../src/ops/table.js';
import { loadIbanQaPackage } from '../../src/transport/grpc/proto.js';
import { mutatedBytes, requestOf } from './arbitraries.js';

/**
 * A bounded fuzz run over every REST endpoint and every gRPC method of the op table. Requests are drawn
 * from the op input schemas (fast-check) and from byte-level mutations of well-formed requests. What
 * counts as a failure: a 5xx (or gRPC INTERNAL, UNKNOWN, DATA_LOSS, UNAVAILABLE), a hang (no answer within
 * `hangMs`), a transport error (the server closed on us), and an error answer without the Error object
 * (error, message, request_id equal to X-Request-ID) or, over gRPC, without the request_id trailer.
 */
export interface FuzzTarget {
  readonly restBase: string;
  readonly grpcAddress: string;
  readonly keys: Readonly<Record<PlanId, string>>;
}

export interface FuzzOptions {
  readonly requests: number;
  readonly seed: number;
  readonly concurrency?: number;
  /** Share of requests sent over gRPC. */
  readonly grpcShare?: number;
  readonly hangMs?: number;
  /** Answers slower than this are listed in `slow` (they are not failures: the hang bound is `hangMs`). */
  readonly slowMs?: number;
  /** Only 'rest' or only 'grpc' (the long bench run measures each front separately). */
  readonly only?: 'rest' | 'grpc';
}

export interface FuzzReport {
  rest: number;
  grpc: number;
  /** The longest the client spent drawing one batch of cases (synchronous: nothing else runs meanwhile). */
  drawMsMax?: number;
  /** Requests answered, but after `slowMs`, with the time they took. */
  slow?: string[];
  readonly outcomes: Record<string, number>;
  readonly failures: string[];
}

type Case =
  | {
      readonly transport: 'rest';
      readonly op: AnyOp;
      readonly key: string | undefined;
      readonly value: unknown;
      readonly bytes: Buffer | null;
    }
  | {
      readonly transport: 'grpc';
      readonly op: AnyOp;
      readonly key: string | undefined;
      readonly value: unknown;
      readonly bytes: Buffer | null;
    };

const restOps = ops.filter((op) => op.http !== null);
const failingGrpc = new Set<number>([
  status.INTERNAL,
  status.UNKNOWN,
  status.DATA_LOSS,
  status.UNAVAILABLE,
]);

function keyArbitrary(keys: FuzzTarget['keys']): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(keys.unlimited) },
    { weight: 2, arbitrary: fc.constantFrom(keys.free, keys.pro, keys.enterprise, keys.starter) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(undefined, 'iq_0000000000000000000000000000000', 'not a key', 'ä'),
    },
  );
}

/**
 * Each op's request arbitrary, built once. Building one (the op's schema walked, its patterns parsed) cost far
 * more than drawing from it: built anew for every case, as before, drawing the 10,000 cases of the test's run
 * took 13.7 s, against 0.2 s built once. An arbitrary holds no state between draws, so the cases are the same
 * ones (all 10,000 of the test's seed compared: keys, values and mutated bytes identical).
 */
const requestArbitraries = new Map<AnyOp, fc.Arbitrary<unknown>>();
function requestArbitraryOf(op: AnyOp): fc.Arbitrary<unknown> {
  let arbitrary = requestArbitraries.get(op);
  if (arbitrary === undefined) requestArbitraries.set(op, (arbitrary = requestOf(op.input)));
  return arbitrary;
}

/** A well-formed sample of the op's request, as the bytes the mutations start from. */
function sampleOf(op: AnyOp, seed: number): unknown {
  return fc.sample(requestArbitraryOf(op), { seed, numRuns: 1 })[0];
}

function caseArbitrary(
  target: FuzzTarget,
  transport: 'rest' | 'grpc',
  seed: number,
): fc.Arbitrary<Case> {
  const pool = transport === 'rest' ? restOps : ops;
  const key = keyArbitrary(target.keys);
  // The mutations of each op's one sample at this seed: built once per op, as the requests are.
  const mutations = new Map<AnyOp, fc.Arbitrary<Buffer>>();
  const mutationsOf = (op: AnyOp): fc.Arbitrary<Buffer> => {
    let arbitrary = mutations.get(op);
    if (arbitrary === undefined) {
      const sample = Buffer.from(JSON.stringify(sampleOf(op, seed)) ?? '{}');
      mutations.set(op, (arbitrary = mutatedBytes(sample)));
    }
    return arbitrary;
  };
  return fc.constantFrom(...pool).chain(
    (op) =>
      fc.record({
        transport: fc.constant(transport),
        op: fc.constant(op),
        key,
        value: requestArbitraryOf(op),
        bytes: fc.oneof(
          { weight: 3, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: mutationsOf(op) },
        ),
      }) as fc.Arbitrary<Case>,
  );
}

function restRequest(
  op: AnyOp,
  value: unknown,
  bytes: Buffer | null,
): { path: string; body: Buffer | string | undefined } {
  const http = op.http!;
  const fields =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? { ...(value as Record<string, unknown>) }
      : {};
  // With mutated bytes, path parameters and the query are the raw mutation: '%' stays as it is, so stray and
  // broken percent-escapes reach the server; only what would end the path ('/', '?', '#', controls) is escaped.
  const raw = bytes
    ?.toString('latin1')
    .replace(/[^\x21-\x7e]|[/?#]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  const path = http.path.replace(/:([a-z_]+)/g, (_, name: string) => {
    const part = fields[name];
    delete fields[name];
    if (raw !== undefined && raw !== '') return raw.slice(0, 60);
    return encodeURIComponent(typeof part === 'string' ? part : (JSON.stringify(part) ?? 'x'));
  });
  if (http.inputFrom === 'query') {
    const query = new URLSearchParams();
    for (const [name, part] of Object.entries(fields))
      query.set(name, typeof part === 'string' ? part : (JSON.stringify(part) ?? ''));
    return { path: `${path}?${raw ?? query.toString()}`, body: undefined };
  }
  return { path, body: bytes ?? JSON.stringify(value) };
}

interface Bounds {
  readonly hangMs: number;
  readonly slowMs: number;
}

const bodySnippet = (body: Buffer | string | undefined) =>
  body === undefined
    ? ''
    : ` body ${(typeof body === 'string' ? body : body.toString('latin1')).slice(0, 160)}`;

function noteSlow(
  report: FuzzReport,
  bounds: Bounds,
  label: string,
  started: number,
  body: Buffer | string | undefined,
): void {
  const took = performance.now() - started;
  if (took <= bounds.slowMs) return;
  (report.slow ??= []).push(`${label}: ${Math.round(took)} ms${bodySnippet(body)}`);
}

async function sendRest(
  target: FuzzTarget,
  item: Extract<Case, { transport: 'rest' }>,
  bounds: Bounds,
  report: FuzzReport,
): Promise<void> {
  const { hangMs } = bounds;
  const { path, body } = restRequest(item.op, item.value, item.bytes);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (item.key !== undefined)
    headers['x-api-key'] = encodeURIComponent(item.key) === item.key ? item.key : 'iq_x';
  const label = `REST ${item.op.http!.method} ${path.slice(0, 120)}`;
  const started = performance.now();
  try {
    const response = await fetch(`${target.restBase}${path}`, {
      method: item.op.http!.method,
      headers,
      ...(body === undefined
        ? {}
        : { body: typeof body === 'string' ? body : new Uint8Array(body) }),
      signal: AbortSignal.timeout(hangMs),
    });
    const text = await response.text();
    noteSlow(report, bounds, label, started, body);
    report.outcomes[`rest ${response.status}`] =
      (report.outcomes[`rest ${response.status}`] ?? 0) + 1;
    if (response.status >= 500)
      report.failures.push(`${label}: ${response.status} ${text.slice(0, 200)}`);
    else if (response.status >= 400) {
      const error = JSON.parse(text) as {
        error?: unknown;
        message?: unknown;
        request_id?: unknown;
      };
      if (
        typeof error.error !== 'string' ||
        typeof error.message !== 'string' ||
        error.request_id !== response.headers.get('x-request-id')
      ) {
        report.failures.push(
          `${label}: ${response.status} without the Error object: ${text.slice(0, 200)}`,
        );
      }
    }
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const waited = `after ${Math.round(performance.now() - started)} ms`;
    report.failures.push(
      `${label}: ${(error as Error).name === 'TimeoutError' ? 'hang' : `${String(error)} (${cause?.code ?? ''} ${cause?.message ?? ''})`} ${waited}${bodySnippet(body)}`,
    );
  }
}

interface GrpcMethod {
  readonly path: string;
  readonly requestSerialize: (value: unknown) => Buffer;
  readonly requestStream: boolean;
  readonly responseStream: boolean;
}

function grpcBytes(method: GrpcMethod, value: unknown, bytes: Buffer | null, seed: number): Buffer {
  if (bytes === null) {
    try {
      return method.requestSerialize(value);
    } catch {
      return Buffer.alloc(0);
    }
  }
  // Mutate a well-formed encoding of the same value (the JSON mutation above is for REST only).
  let encoded: Buffer;
  try {
    encoded = method.requestSerialize(value);
  } catch {
    encoded = Buffer.alloc(0);
  }
  return fc.sample(mutatedBytes(encoded), { seed: seed ^ bytes.length, numRuns: 1 })[0] ?? encoded;
}

function sendGrpc(
  client: Client,
  methods: ReadonlyMap<string, GrpcMethod>,
  item: Extract<Case, { transport: 'grpc' }>,
  bounds: Bounds,
  report: FuzzReport,
  seed: number,
): Promise<void> {
  const { hangMs } = bounds;
  const method = methods.get(item.op.grpc.method)!;
  const bytes = grpcBytes(method, item.value, item.bytes, seed);
  const metadata = new Metadata();
  if (item.key !== undefined && /^[ -~]*$/.test(item.key)) metadata.set('x-api-key', item.key);
  const deadline = Date.now() + hangMs;
  const identity = (buffer: Buffer) => buffer;
  const label = `gRPC ${item.op.grpc.method} ${bytes.toString('hex').slice(0, 80)}`;
  const started = performance.now();
  const settle = (error: ServiceError | null | undefined, resolve: () => void) => {
    const code = error?.code ?? status.OK;
    if (code !== status.DEADLINE_EXCEEDED) noteSlow(report, bounds, label, started, undefined);
    report.outcomes[`grpc ${status[code]}`] = (report.outcomes[`grpc ${status[code]}`] ?? 0) + 1;
    if (code === status.DEADLINE_EXCEEDED) report.failures.push(`${label}: hang`);
    else if (failingGrpc.has(code))
      report.failures.push(`${label}: ${status[code]} ${error?.details}`);
    else if (
      error &&
      code !== status.CANCELLED &&
      typeof error.metadata?.get('request_id')[0] !== 'string'
    )
      report.failures.push(`${label}: ${status[code]} without request_id`);
    resolve();
  };
  return new Promise((resolve) => {
    if (!method.requestStream && !method.responseStream) {
      client.makeUnaryRequest(
        method.path,
        identity,
        identity,
        bytes,
        metadata,
        { deadline },
        (error) => settle(error, resolve),
      );
    } else if (method.responseStream && !method.requestStream) {
      const call = client.makeServerStreamRequest(
        method.path,
        identity,
        identity,
        bytes,
        metadata,
        { deadline },
      );
      // The first chunk is enough; cancelling exercises the server's cancellation path too.
      call.on('data', () => call.cancel());
      call.on('error', (error: ServiceError) => settle(error, resolve));
      call.on('end', () => undefined);
      call.on('status', (result) => {
        if (result.code === status.OK) settle(null, resolve);
      });
    } else {
      const call = client.makeBidiStreamRequest(method.path, identity, identity, metadata, {
        deadline,
      });
      call.on('data', () => undefined);
      call.on('error', (error: ServiceError) => settle(error, resolve));
      call.on('status', (result) => {
        if (result.code === status.OK) settle(null, resolve);
      });
      call.write(bytes);
      if (bytes.length % 2 === 0) call.write(bytes);
      call.end();
    }
  });
}

/**
 * Drawing a batch blocks this process, for seconds when the shared machine is busy. Meanwhile uWS may close
 * keep-alive sockets it saw idle for its 10 s timeout, and undici's own idle timer (4 s) cannot fire. Fetches
 * issued right after the draw would then go out on sockets whose FIN is already queued and fail with
 * UND_ERR_SOCKET "other side closed" (measured: 16 at once, one per worker, after a slow batch at load
 * average 15). One timers phase and one poll phase first let undici drop those sockets.
 */
async function letPendingIoRun(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => setImmediate(resolve));
}

export async function runFuzz(target: FuzzTarget, options: FuzzOptions): Promise<FuzzReport> {
  const report: FuzzReport = { rest: 0, grpc: 0, outcomes: {}, failures: [] };
  const { definition } = loadIbanQaPackage();
  const service = definition['ibanqa.v1.IbanQa'] as unknown as Record<string, GrpcMethod>;
  const methods = new Map(Object.entries(service));
  // The largest answers (a BulkDataset of thousands of rows with profiles) exceed grpc-js's default 4 MiB receive
  // limit; the client refusing them (RESOURCE_EXHAUSTED raised here, without the server's trailers) is not the
  // server's failure. RELIABILITY.md, "Fuzz (long run)", notes it for clients.
  const client = new Client(target.grpcAddress, credentials.createInsecure(), {
    'grpc.max_receive_message_length': -1,
  });
  const bounds: Bounds = {
    hangMs: options.hangMs ?? 5_000,
    slowMs: options.slowMs ?? Number.POSITIVE_INFINITY,
  };
  const concurrency = options.concurrency ?? 16;
  const grpcShare =
    options.only === 'grpc' ? 1 : options.only === 'rest' ? 0 : (options.grpcShare ?? 0.3);
  const batch = 500;
  try {
    for (let start = 0; start < options.requests; start += batch) {
      const count = Math.min(batch, options.requests - start);
      const grpcCount = Math.round(count * grpcShare);
      const seed = options.seed + start;
      const drawStarted = performance.now();
      const cases: Case[] = [
        ...fc.sample(caseArbitrary(target, 'rest', seed), { seed, numRuns: count - grpcCount }),
        ...(grpcCount === 0
          ? []
          : fc.sample(caseArbitrary(target, 'grpc', seed), { seed: seed + 1, numRuns: grpcCount })),
      ];
      report.drawMsMax = Math.max(
        report.drawMsMax ?? 0,
        Math.round(performance.now() - drawStarted),
      );
      await letPendingIoRun();
      let next = 0;
      const worker = async () => {
        while (next < cases.length) {
          const item = cases[next++]!;
          if (item.transport === 'rest') {
            report.rest++;
            await sendRest(target, item, bounds, report);
          } else {
            report.grpc++;
            await sendGrpc(client, methods, item, bounds, report, seed + next);
          }
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
    }
  } finally {
    client.close();
  }
  return report;
}

/** Resident set size of the service, from its own /metrics. */
export async function serviceRss(root: string): Promise<number> {
  const text = await (await fetch(`${root}/metrics`)).text();
  return Number(/^process_resident_memory_bytes (\d+)/m.exec(text)?.[1] ?? NaN);
}
