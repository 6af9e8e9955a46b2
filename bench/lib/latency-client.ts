/**
 * A sequential HTTP/1.1 keep-alive client for latency runs: one request in flight, timed from write to
 * the last body byte. Why not node:http or autocannon: on 5,000 lookups answering 22 KB, node:http in the
 * bench process ran 51-64 garbage collections (61-117 ms of pauses, up to 5.7 ms each), as many as the
 * requests it reported over 1 ms; the figure measured the client. This client reads into one reused buffer
 * (net.Socket `onread`) and sends pre-encoded requests, so it allocates next to nothing per request; its GC
 * pauses are reported with the figures (`clientGc`) so a reader can check.
 */
import { connect, type Socket } from 'node:net';
import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Bigger than any response head, and reads of a large body take several turns of the same buffer. */
const readBufferBytes = 256 * 1024;
const headEnd = Buffer.from('\r\n\r\n');
const noBytes = Buffer.alloc(0);
/** Long enough for the timer turn that delivers GC entries to observers. */
const GC_ENTRY_DELIVERY_MS = 10;
const contentLengthPattern = /\r\ncontent-length:\s*(\d+)/i;

export interface Latency {
  readonly requests: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly p999Ms: number;
  readonly meanMs: number;
  /** Share of requests over 1 ms. */
  readonly over1MsShare: number;
}

export interface ClientGc {
  readonly count: number;
  readonly totalMs: number;
  readonly maxMs: number;
}

export function latencyOf(samples: number[]): Latency {
  samples.sort((a, b) => a - b);
  const at = (q: number) =>
    samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
  const mean = samples.reduce((sum, value) => sum + value, 0) / Math.max(1, samples.length);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    requests: samples.length,
    p50Ms: round(at(0.5)),
    p99Ms: round(at(0.99)),
    p999Ms: round(at(0.999)),
    meanMs: round(mean),
    over1MsShare: round(samples.filter((value) => value > 1).length / Math.max(1, samples.length)),
  };
}

/** A request as bytes: `POST path` with a JSON body and the given headers. */
export function encodePost(
  host: string,
  port: number,
  path: string,
  headers: Readonly<Record<string, string>>,
  body: string,
): Buffer {
  const payload = Buffer.from(body);
  const lines = [
    `POST ${path} HTTP/1.1`,
    `host: ${host}:${port}`,
    'content-type: application/json',
    `content-length: ${payload.length}`,
  ];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), payload]);
}

interface Pending {
  readonly started: number;
  resolve(ms: number): void;
  reject(error: Error): void;
}

export class LatencyClient {
  private pending: Pending | null = null;
  /** Bytes of the current response still expected after its head; -1 while the head is incomplete. */
  private remaining = -1;
  private head: Buffer = noBytes;
  private status = 0;

  private constructor(private readonly socket: Socket) {}

  static open(host: string, port: number): Promise<LatencyClient> {
    return new Promise((resolve, reject) => {
      const buffer = Buffer.allocUnsafe(readBufferBytes);
      let client: LatencyClient | null = null;
      const socket = connect({
        host,
        port,
        noDelay: true,
        onread: {
          buffer,
          callback: (bytes: number, chunk: Uint8Array) => {
            client?.onBytes(chunk.subarray(0, bytes));
            return true;
          },
        },
      });
      client = new LatencyClient(socket);
      socket.once('connect', () => resolve(client as LatencyClient));
      socket.on('error', (error) => {
        client?.fail(error);
        reject(error);
      });
      socket.on('close', () => client?.fail(new Error('connection closed by the server')));
    });
  }

  /** Sends one request and resolves with the milliseconds to its last byte; a status other than 200 rejects. */
  send(request: Buffer): Promise<number> {
    if (this.pending !== null) return Promise.reject(new Error('one request at a time'));
    return new Promise((resolve, reject) => {
      this.pending = { started: performance.now(), resolve, reject };
      this.remaining = -1;
      this.head = noBytes;
      this.socket.write(request);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private onBytes(chunk: Uint8Array): void {
    let body = chunk;
    if (this.remaining < 0) {
      // The head is parsed once per response (a few hundred bytes); it is copied only when it spans reads.
      const bytes =
        this.head.length === 0
          ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
          : Buffer.concat([this.head, chunk]);
      const end = bytes.indexOf(headEnd);
      if (end < 0) {
        this.head = Buffer.from(bytes);
        return;
      }
      const text = bytes.subarray(0, end).toString('latin1');
      this.status = Number(text.slice(9, 12));
      const length = contentLengthPattern.exec(text)?.[1];
      if (length === undefined)
        return this.fail(new Error(`response without content-length: ${text.slice(0, 200)}`));
      this.remaining = Number(length);
      body = bytes.subarray(end + headEnd.length);
    }
    this.remaining -= body.length;
    if (this.remaining > 0) return;
    const pending = this.pending;
    this.pending = null;
    if (pending === null) return;
    if (this.remaining < 0)
      pending.reject(new Error('more bytes than content-length (pipelining is not used)'));
    else if (this.status !== 200) pending.reject(new Error(`HTTP ${this.status}`));
    else pending.resolve(performance.now() - pending.started);
  }

  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = null;
    pending?.reject(error);
  }
}

/** GC pauses of this process while `work` runs: a latency figure is only as good as its client. */
export async function withClientGc<T>(
  work: () => Promise<T>,
): Promise<{ result: T; clientGc: ClientGc }> {
  const pauses: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push(entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    const result = await work();
    // GC entries reach observers on a later timer turn (measured: not yet after setImmediate, there after
    // setTimeout 0); this wait is outside the timed requests.
    await new Promise((resolve) => setTimeout(resolve, GC_ENTRY_DELIVERY_MS));
    const totalMs = pauses.reduce((sum, value) => sum + value, 0);
    return {
      result,
      clientGc: {
        count: pauses.length,
        totalMs: Math.round(totalMs * 10) / 10,
        maxMs: Math.round(Math.max(0, ...pauses) * 100) / 100,
      },
    };
  } finally {
    observer.disconnect();
  }
}

/**
 * A full collection in this process, so garbage left by earlier work (a registry import in the bench
 * process) is not collected in the middle of a measured run. --expose-gc is switched on for a fresh
 * context only: the documented way to reach gc() without a command-line flag.
 */
export function collectClientGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

export interface Round {
  readonly latency: Latency;
  readonly clientGc: ClientGc;
}

export interface Rounds {
  readonly rounds: readonly Round[];
  /** The median round by p99: one noisy round on a shared VM neither makes nor breaks a figure. */
  readonly median: Latency;
}

/** One server to time: a POST route and the bodies to send it, in order. */
export interface LatencyTarget {
  readonly port: number;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodies: readonly string[];
  /** Bodies for the warm-up only (for instance lookups that match nothing, so no record is read before it is timed). */
  readonly warmupBodies?: readonly string[];
}

export interface RoundOptions {
  readonly rounds?: number;
  /** Requests per target before the first round: 3,000 by default (see sequentialRounds). */
  readonly warmup?: number;
}

function medianRound(rounds: readonly Round[]): Latency {
  const byP99 = [...rounds].sort((a, b) => a.latency.p99Ms - b.latency.p99Ms);
  return (byP99[Math.floor(byP99.length / 2)] as Round).latency;
}

/**
 * Rounds over several targets at once, one request to each in turn, each over its own keep-alive connection:
 * a paired comparison (10,000 vs 1,000,000 records) where both sides meet the same moments of a shared, noisy
 * machine. Measured before pairing: the p99 ratio of two runs taken minutes apart moved between 1.28x and 1.67x
 * with the p50 ratio at 1.0x. Each target keeps one running position through its bodies (warm-up first, unless
 * it has warm-up bodies), so with enough distinct bodies no measured request repeats one sent before.
 */
export async function interleavedRounds(
  targets: readonly LatencyTarget[],
  requests: number,
  options: RoundOptions = {},
): Promise<Rounds[]> {
  const lanes = await Promise.all(
    targets.map(async (target) => {
      const encode = (body: string) =>
        encodePost('127.0.0.1', target.port, target.path, target.headers, body);
      const encoded = target.bodies.map(encode);
      const warmups = target.warmupBodies?.map(encode);
      let sent = 0;
      let warmed = 0;
      return {
        client: await LatencyClient.open('127.0.0.1', target.port),
        next: () => encoded[sent++ % encoded.length] as Buffer,
        nextWarmup: () =>
          warmups === undefined
            ? (encoded[sent++ % encoded.length] as Buffer)
            : (warmups[warmed++ % warmups.length] as Buffer),
        rounds: [] as Round[],
        samples: [] as number[],
      };
    }),
  );
  try {
    const warmup = options.warmup ?? 3_000;
    for (let i = 0; i < warmup; i++)
      for (const lane of lanes) await lane.client.send(lane.nextWarmup());
    for (let round = 0; round < (options.rounds ?? 3); round++) {
      collectClientGarbage();
      for (const lane of lanes) lane.samples = new Array<number>(requests);
      const { clientGc } = await withClientGc(async () => {
        for (let i = 0; i < requests; i++)
          for (const lane of lanes) lane.samples[i] = await lane.client.send(lane.next());
      });
      for (const lane of lanes) lane.rounds.push({ latency: latencyOf(lane.samples), clientGc });
    }
    return lanes.map((lane) => ({ rounds: lane.rounds, median: medianRound(lane.rounds) }));
  } finally {
    for (const lane of lanes) lane.client.close();
  }
}

/**
 * `rounds` runs of `requests` sequential requests over one keep-alive connection, cycling through `bodies`
 * (continuing after the warm-up), after `warmup` requests (3,000 by default: measured, the first 5,000 lookups
 * after start ran with p99 1.2-1.8 ms while V8 was still compiling the hot path on 2 cores, later runs 0.3-0.7 ms).
 */
export async function sequentialRounds(
  port: number,
  path: string,
  headers: Readonly<Record<string, string>>,
  bodies: readonly string[],
  requests: number,
  options: RoundOptions = {},
): Promise<Rounds> {
  const [rounds] = await interleavedRounds([{ port, path, headers, bodies }], requests, options);
  return rounds as Rounds;
}
