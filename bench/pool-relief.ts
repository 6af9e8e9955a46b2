/**
 * Does the worker pool keep the service responsive? Four concurrent POST /bulk-dataset requests of 10,000 rows
 * (three rounds) while one client loops small POST /validate requests; the same run with the pool off
 * (threshold 1,000,000: everything inline) and on (the configured 2,000). The service runs as its own process;
 * pooled runs serialize their JSON in the worker. Writes bench/results/pool-relief.json and its RESULTS.md section.
 */
import { resultsMdPath } from './lib/report.js';
import { startIbanqa } from './lib/ibanqa-process.js';
import { writeResult } from './lib/results.js';
import { writeSection } from './lib/sections.js';

const bulkRows = 10_000;
const concurrentBulk = 4;
const rounds = 3;

async function post(base: string, key: string, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

async function measure(threshold: number) {
  const service = await startIbanqa({ IBANQA_POOL_THRESHOLD_ROWS: String(threshold) });
  const base = `http://127.0.0.1:${service.httpPort}/api/v1`;
  try {
    await post(base, service.unlimitedKey, '/bulk-dataset', { country: 'DE', quantity: bulkRows });
    const small: number[] = [];
    let stop = false;
    const probe = (async () => {
      while (!stop) {
        const started = performance.now();
        await post(base, service.unlimitedKey, '/validate', { ibans: ['DE89370400440532013000'] });
        small.push(performance.now() - started);
      }
    })();
    const started = performance.now();
    for (let round = 0; round < rounds; round++) {
      await Promise.all(
        Array.from({ length: concurrentBulk }, () =>
          post(base, service.unlimitedKey, '/bulk-dataset', { country: 'DE', quantity: bulkRows }),
        ),
      );
    }
    const bulkMsPerRequest = (performance.now() - started) / (rounds * concurrentBulk);
    stop = true;
    await probe;
    small.sort((a, b) => a - b);
    return {
      threshold,
      bulkMsPerRequest,
      smallRequests: small.length,
      smallP50Ms: percentile(small, 0.5),
      smallP99Ms: percentile(small, 0.99),
      smallMaxMs: small.at(-1) ?? Number.NaN,
    };
  } finally {
    await service.stop();
  }
}

export async function runPoolRelief(log: (line: string) => void) {
  const inline = await measure(1_000_000);
  log(`pool-relief inline: ${JSON.stringify(inline)}`);
  const pooled = await measure(2_000);
  log(`pool-relief pooled: ${JSON.stringify(pooled)}`);
  return { bulkRows, concurrentBulk, rounds, inline, pooled };
}

type Relief = Awaited<ReturnType<typeof runPoolRelief>>;

export function poolReliefSection(result: Relief): string {
  const row = (name: string, r: Relief['inline']) =>
    `| ${name} | ${r.bulkMsPerRequest.toFixed(1)} | ${r.smallRequests} | ${r.smallP50Ms.toFixed(2)} | ${r.smallP99Ms.toFixed(1)} | ${r.smallMaxMs.toFixed(1)} |`;
  return [
    '## Pool relief: small requests during large ones (bench/pool-relief.ts)',
    '',
    `${result.concurrentBulk} concurrent POST /bulk-dataset of ${result.bulkRows.toLocaleString('en-US')} rows, ${result.rounds} rounds, while one client loops ` +
      'POST /validate with one IBAN. Pooled runs serialize their JSON in the worker (src/render/body.ts), so the main thread receives one string.',
    '',
    '| mode | bulk ms per request | small requests served | small p50 ms | small p99 ms | small max ms |',
    '| --- | --- | --- | --- | --- | --- |',
    row('inline (threshold 1,000,000)', result.inline),
    row('pool (threshold 2,000, the default)', result.pooled),
    '',
    `The trade the default threshold makes: a bulk request takes ${(result.pooled.bulkMsPerRequest / result.inline.bulkMsPerRequest).toFixed(2)}x as long ` +
      '(on 2 cores the workers and the main thread share the CPUs), and in exchange the event loop stays free: ' +
      `${result.pooled.smallRequests} small requests served instead of ${result.inline.smallRequests}, p99 ${result.pooled.smallP99Ms.toFixed(0)} ms instead of ${result.inline.smallP99Ms.toFixed(0)} ms.`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runPoolRelief((line) => console.log(line));
  console.log(`-> ${writeResult('pool-relief', result)}`);
  writeSection(resultsMdPath, 'pool-relief', poolReliefSection(result));
}
