// Soak: mixed REST and gRPC load at about 70% of the capacity measured first, for SOAK_MINUTES (default 10),
// against the service in its own process. Holds (exit code 1 otherwise): no error; RSS of the last minute within
// 10% of the second minute's (the first is warm-up); p99 of every minute after the first within 3x the second
// minute's. Bounded by time and by an in-flight cap; 127.0.0.1 only. Usage: npm run bench:soak
import { credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { loadIbanQaPackage } from '../src/transport/grpc/proto.js';
import { procMemory } from './lib/proc.js';
import { startIbanqa } from './lib/ibanqa-process.js';

const minutes = Number(process.env.SOAK_MINUTES ?? 10);
const share = Number(process.env.SOAK_SHARE ?? 0.7);
const inFlightMax = 256;
const ibans = [
  'DE89370400440532013000',
  'GB82WEST12345698765432',
  'FR1420041010050500013M02606',
  'NL91ABNA0417164300',
  'AT611904300234573201',
];

const service = await startIbanqa();
const base = `http://127.0.0.1:${service.httpPort}/api/v1`;
const { service: Client } = loadIbanQaPackage();
const grpc = new Client(
  `127.0.0.1:${service.grpcPort}`,
  credentials.createInsecure(),
) as unknown as Record<string, (...args: unknown[]) => void> & { close(): void };
const metadata = new Metadata();
metadata.set('x-api-key', service.unlimitedKey);

type Kind = 'rest-validate' | 'rest-generate' | 'grpc-validate' | 'grpc-generate';
const mix: readonly Kind[] = [
  'rest-validate',
  'rest-validate',
  'rest-validate',
  'rest-generate',
  'rest-generate',
  'grpc-validate',
  'grpc-validate',
  'grpc-generate',
  'rest-validate',
  'grpc-validate',
];

async function one(kind: Kind): Promise<void> {
  if (kind.startsWith('rest')) {
    const body =
      kind === 'rest-validate'
        ? { ibans }
        : { country: 'DE', quantity: 5, include_bank_details: true };
    const response = await fetch(`${base}/${kind === 'rest-validate' ? 'validate' : 'generate'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': service.unlimitedKey },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${kind}: ${response.status}`);
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const method = kind === 'grpc-validate' ? 'Validate' : 'Generate';
    const request =
      kind === 'grpc-validate'
        ? { ibans }
        : { country: 'DE', quantity: 5, include_bank_details: true };
    grpc[method]!(
      request,
      metadata,
      { deadline: Date.now() + 10_000 },
      (error: ServiceError | null) =>
        error ? reject(new Error(`${kind}: ${error.code} ${error.details}`)) : resolve(),
    );
  });
}

/** Closed loop, 32 in flight, 15 s: requests per second the service completes with this mix. */
async function capacity(): Promise<number> {
  const until = Date.now() + 15_000;
  let done = 0;
  await Promise.all(
    Array.from({ length: 32 }, async (_, lane) => {
      for (let index = lane; Date.now() < until; index += 32) {
        await one(mix[index % mix.length] as Kind);
        done++;
      }
    }),
  );
  return done / 15;
}

interface Minute {
  minute: number;
  requests: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  rssMiB: number;
  load1: number;
}

async function soak(rate: number): Promise<{ minutes: Minute[]; errors: string[] }> {
  const errors: string[] = [];
  const result: Minute[] = [];
  let latencies: number[] = [];
  let windowErrors = 0;
  let inFlight = 0;
  let issued = 0;
  const started = Date.now();
  const tick = setInterval(() => {
    const due = Math.floor(((Date.now() - started) / 1000) * rate) - issued;
    for (let index = 0; index < due; index++) {
      issued++;
      if (inFlight >= inFlightMax) {
        windowErrors++;
        errors.push('client in-flight cap reached: the service fell behind');
        continue;
      }
      inFlight++;
      const sent = performance.now();
      one(mix[issued % mix.length] as Kind)
        .then(() => latencies.push(performance.now() - sent))
        .catch((error: unknown) => {
          windowErrors++;
          if (errors.length < 50) errors.push(String(error));
        })
        .finally(() => inFlight--);
    }
  }, 5);
  for (let minute = 1; minute <= minutes; minute++) {
    await new Promise((resolve) => setTimeout(resolve, 60_000));
    const sorted = latencies.sort((a, b) => a - b);
    const at = (q: number) =>
      Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN) * 10) /
      10;
    result.push({
      minute,
      requests: sorted.length,
      errors: windowErrors,
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      rssMiB: procMemory(service.child.pid).rssMiB,
      load1: Math.round(loadavg()[0]! * 10) / 10,
    });
    process.stderr.write(`${JSON.stringify(result.at(-1))}\n`);
    latencies = [];
    windowErrors = 0;
  }
  clearInterval(tick);
  return { minutes: result, errors };
}

const loadavgAtStart = loadavg();
try {
  const measured = await capacity();
  const rate = Math.max(1, Math.round(measured * share));
  const { minutes: perMinute, errors } = await soak(rate);
  const second = perMinute[1] ?? perMinute[0]!;
  const last = perMinute.at(-1)!;
  const rssStable = last.rssMiB <= second.rssMiB * 1.1;
  const p99Stable = perMinute.slice(1).every((row) => row.p99Ms <= second.p99Ms * 3);
  const result = {
    date: new Date().toISOString(),
    machine: "2 cores, shared and busy with other engineers' work; client and service share them",
    loadavgAtStart,
    loadavgAtEnd: loadavg(),
    capacityRps: Math.round(measured),
    targetRps: rate,
    minutes: perMinute,
    errors: errors.length,
    firstErrors: errors.slice(0, 10),
    bounds: {
      rss: 'last minute <= second minute + 10%',
      p99: 'every minute after the first <= 3x the second minute',
    },
    rssStable,
    p99Stable,
  };
  mkdirSync('bench/results', { recursive: true });
  const file = `bench/results/soak-${result.date.slice(0, 10)}.json`;
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n${file}\n`);
  process.exitCode = errors.length === 0 && rssStable && p99Stable ? 0 : 1;
} finally {
  grpc.close();
  await service.stop();
}
