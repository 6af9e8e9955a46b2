/**
 * What handing a rendered bulk body from a pool worker to the main thread costs: the JSON of a 10,000-row
 * dataset with profiles (as workers/ops.ts renders it) posted as a string (structured clone copies it) versus
 * as UTF-8 bytes in a transferred ArrayBuffer (no copy; the encoding moves to the worker, where the main thread
 * would otherwise encode the string for the socket).
 *
 *   node --import tsx bench/pool-transfer.ts
 */
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import type { RunContext } from '../src/contract/capabilities.js';
import { median } from './lib/results.js';

const rounds = 7;

interface Posted {
  readonly kind: 'string' | 'bytes';
  readonly body: string | Uint8Array;
  /** performance.timeOrigin + now() in the worker right before postMessage. */
  readonly sentAt: number;
  readonly encodeMs: number;
}

async function renderBulkBody(): Promise<string> {
  const { Value } = await import('@sinclair/typebox/value');
  const { loadEmbeddedDefault } = await import('../src/registry/embedded-default.js');
  const { createMemoryDirectory } = await import('../src/registry/memory-directory.js');
  const { requestKeyFor } = await import('../src/service/request-key.js');
  const { ibanBulkDataset } = await import('../src/ops/iban/bulk-dataset.js');
  const { outputJsonBytes } = await import('../src/render/json-bytes.js');
  const bank = createMemoryDirectory(loadEmbeddedDefault());
  const input = Value.Default(ibanBulkDataset.input, {
    country: 'DE',
    quantity: 10_000,
    include_profiles: true,
    seed: 'transfer',
  });
  const now = new Date();
  const context: RunContext<'bank' | 'requestKey'> = {
    requestKey: requestKeyFor(ibanBulkDataset.name, 'transfer', input),
    caller: { keyId: 'bench', plan: 'enterprise' as const, paid: true },
    bank,
    rowStart: 0,
    now: () => now,
  };
  if (!Value.Check(ibanBulkDataset.input, input))
    throw new Error('the transfer request is invalid');
  return Buffer.from(outputJsonBytes(ibanBulkDataset.run(input, context))).toString('utf8');
}

async function worker(): Promise<void> {
  const port = parentPort;
  if (port === null) return;
  const body = await renderBulkBody();
  port.on('message', (kind: 'string' | 'bytes') => {
    const started = performance.now();
    const payload = kind === 'string' ? body : new Uint8Array(Buffer.from(body, 'utf8'));
    const message: Posted = {
      kind,
      body: payload,
      sentAt: performance.timeOrigin + performance.now(),
      encodeMs: performance.now() - started,
    };
    port.postMessage(message, payload instanceof Uint8Array ? [payload.buffer as ArrayBuffer] : []);
  });
  port.postMessage('ready');
}

async function main(): Promise<void> {
  // A JavaScript entry that loads this file through tsx's API (an eval worker cannot start from a .ts file).
  const api = import.meta.resolve('tsx/esm/api');
  const thread = new Worker(
    `import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(import.meta.url)}, ${JSON.stringify(import.meta.url)}))`,
    { eval: true },
  );
  const next = () => new Promise<Posted | 'ready'>((resolve) => thread.once('message', resolve));
  await next();
  const timings: Record<'string' | 'bytes', number[]> = { string: [], bytes: [] };
  let bytes = 0;
  for (let round = 0; round < rounds; round++) {
    for (const kind of ['string', 'bytes'] as const) {
      thread.postMessage(kind);
      const posted = (await next()) as Posted;
      timings[kind].push(performance.timeOrigin + performance.now() - posted.sentAt);
      if (kind === 'bytes') {
        bytes = (posted.body as Uint8Array).byteLength;
        timings.bytes[timings.bytes.length - 1] = (timings.bytes.at(-1) ?? 0) + posted.encodeMs;
      }
    }
  }
  await thread.terminate();
  console.log(`bulk body ${bytes} bytes (UTF-8); median of ${rounds}:`);
  console.log(
    `  string, structured clone: ${median(timings.string).toFixed(1)} ms from postMessage to the main thread's handler`,
  );
  console.log(
    `  bytes, transferred: ${median(timings.bytes).toFixed(1)} ms including the UTF-8 encoding in the worker`,
  );
}

if (isMainThread) await main();
else await worker();
