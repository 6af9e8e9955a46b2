/**
 * Statement review timings. The service runs as its own process (bench/lib/ibanqa-process.ts) with the default
 * two pool threads; this process uploads corpus documents made like the tests make them (pdf-lib, sharp SVG).
 *   1. a two-page text PDF, sequentially: analysis time (completed_at - created_at, the server's own clock)
 *      and the client's upload-to-report time (polling every 5 ms);
 *   2. a one-page image (OCR), the same way;
 *   3. a burst of 50 two-page PDF uploads at once, while one sequential keep-alive client loops POST /validate
 *      (10 IBANs): its latency during the burst against the same client before it.
 * Writes bench/results/statements.json and its section of bench/RESULTS.md.
 */
import { loadavg } from 'node:os';
import { headerLines, statementPdf, statementPng } from '../test/statements/corpus.js';
import { germanSpec, twoPageSpec } from '../test/statements/samples.js';
import { startIbanqa } from './lib/ibanqa-process.js';
import { encodePost, LatencyClient, latencyOf, type Latency } from './lib/latency-client.js';
import { resultsMdPath } from './lib/report.js';
import { round, writeResult } from './lib/results.js';
import { writeSection } from './lib/sections.js';

const pdfRuns = 30;
const imageRuns = 10;
const burstUploads = 50;
const targets = { pdfP50Ms: 300, imageP50Ms: 3_000, validateP99Ms: 10 };

async function uploadOne(base: string, key: string, bytes: Uint8Array): Promise<string> {
  const form = new FormData();
  form.append('statement_file', new Blob([new Uint8Array(bytes)]), 'statement');
  const response = await fetch(`${base}/statement-validator/analyze`, {
    method: 'POST',
    body: form,
    headers: { 'x-api-key': key },
  });
  const body = (await response.json()) as { review_id?: string };
  if (response.status !== 202 || body.review_id === undefined)
    throw new Error(`upload answered ${response.status}`);
  return body.review_id;
}

async function report(
  base: string,
  key: string,
  id: string,
  everyMs: number,
): Promise<{ created_at: string; completed_at: string; status: string }> {
  for (;;) {
    const response = await fetch(`${base}/statement-validator/review/${id}`, {
      headers: { 'x-api-key': key },
    });
    const body = (await response.json()) as {
      created_at: string;
      completed_at: string;
      status: string;
    };
    if (response.status === 200) return body;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN, 1);
}

async function sequential(
  base: string,
  key: string,
  bytes: Uint8Array,
  runs: number,
  warmups: number,
) {
  const server: number[] = [];
  const client: number[] = [];
  for (let index = 0; index < warmups + runs; index++) {
    const started = performance.now();
    const id = await uploadOne(base, key, bytes);
    const done = await report(base, key, id, 5);
    if (done.status !== 'completed') throw new Error(`review ${done.status}`);
    if (index < warmups) continue;
    client.push(performance.now() - started);
    server.push(Date.parse(done.completed_at) - Date.parse(done.created_at));
  }
  return {
    runs,
    bytes: bytes.byteLength,
    serverP50Ms: percentile(server, 0.5),
    serverP90Ms: percentile(server, 0.9),
    clientP50Ms: percentile(client, 0.5),
    clientP90Ms: percentile(client, 0.9),
  };
}

async function validateLatency(
  port: number,
  key: string,
  untilDone: () => boolean,
  requestsMin: number,
): Promise<Latency> {
  const client = await LatencyClient.open('127.0.0.1', port);
  const ibans = Array.from({ length: 10 }, () => 'DE89370400440532013000');
  const request = encodePost(
    '127.0.0.1',
    port,
    '/api/v1/validate',
    { 'x-api-key': key },
    JSON.stringify({ ibans }),
  );
  const samples: number[] = [];
  try {
    while (samples.length < requestsMin || !untilDone()) samples.push(await client.send(request));
  } finally {
    client.close();
  }
  return latencyOf(samples);
}

/** Two rounds, each on a fresh service: on this shared VM one round alone can be off by 2x either way. */
const rounds = 2;

export async function runStatementsBench(log: (line: string) => void) {
  const results = [];
  for (let index = 0; index < rounds; index++) results.push(await runRound(log));
  return results;
}

async function runRound(log: (line: string) => void) {
  const loadAverageAtStart = loadavg().map((value) => round(value, 2));
  const service = await startIbanqa();
  const base = `http://127.0.0.1:${service.httpPort}/api/v1`;
  const key = service.unlimitedKey;
  try {
    const { pdf, image } = await benchDocuments();
    const twoPagePdf = await sequential(base, key, pdf, pdfRuns, 5);
    log(
      `two-page PDF (${pdf.byteLength} B): server p50 ${twoPagePdf.serverP50Ms} ms, client p50 ${twoPagePdf.clientP50Ms} ms`,
    );
    const onePageImage = await sequential(base, key, image, imageRuns, 2);
    log(
      `one-page image (${image.byteLength} B): server p50 ${onePageImage.serverP50Ms} ms, client p50 ${onePageImage.clientP50Ms} ms`,
    );
    const burst = await burstRound(service.httpPort, base, key, pdf, log);
    return { loadAverageAtStart, targets, twoPagePdf, onePageImage, burst };
  } finally {
    await service.stop();
  }
}

/** The two documents every round uploads: a two-page text PDF and a one-page image of the German sample. */
async function benchDocuments(): Promise<{ pdf: Uint8Array; image: Uint8Array }> {
  const pdf = await statementPdf(twoPageSpec());
  const image = await statementPng([
    ...headerLines(germanSpec),
    ...germanSpec.rows.map(
      (row) => `${row.date}  ${row.description}  ${row.amount}  ${row.balance}`,
    ),
    `Closing balance ${germanSpec.closing}`,
  ]);
  return { pdf, image };
}

/** POST /validate latency alone, then during a burst of uploads of `pdf` that all get analysed. */
async function burstRound(
  port: number,
  base: string,
  key: string,
  pdf: Uint8Array,
  log: (line: string) => void,
) {
  const before = await validateLatency(port, key, () => true, 3_000);
  log(`POST /validate alone: p50 ${before.p50Ms} ms, p99 ${before.p99Ms} ms`);
  const burstStarted = performance.now();
  const ids = await Promise.all(
    Array.from({ length: burstUploads }, () => uploadOne(base, key, pdf)),
  );
  const acceptMs = performance.now() - burstStarted;
  let finished = 0;
  // Polled once a second, as a client waiting on a queue would; faster polling is load of its own on the main thread.
  const waiting = Promise.all(
    ids.map((id) => report(base, key, id, 1_000).then(() => (finished += 1))),
  );
  const during = await validateLatency(port, key, () => finished === burstUploads, 500);
  await waiting;
  const burstMs = performance.now() - burstStarted;
  log(
    `burst of ${burstUploads}: accepted in ${round(acceptMs)} ms, all analysed in ${round(burstMs)} ms; POST /validate meanwhile p50 ${during.p50Ms} ms, p99 ${during.p99Ms} ms (${during.requests} requests)`,
  );
  return {
    uploads: burstUploads,
    acceptMs: round(acceptMs),
    allAnalysedMs: round(burstMs),
    validateBefore: before,
    validateDuring: during,
  };
}

type StatementsResult = Awaited<ReturnType<typeof runStatementsBench>>;

export function statementsSection(results: StatementsResult, measuredAt: string): string {
  const met = (value: number, target: number) => (value < target ? 'met' : '**NOT met**');
  const targets = results[0]?.targets ?? { pdfP50Ms: 0, imageP50Ms: 0, validateP99Ms: 0 };
  const documents = results.flatMap((result, index) => {
    const { twoPagePdf: pdf, onePageImage: image } = result;
    return [
      `| ${index + 1} | ${result.loadAverageAtStart.join(' / ')} | two-page text PDF (${pdf.bytes} B, 20 rows) | ${pdf.runs} | ${pdf.serverP50Ms} | ${pdf.serverP90Ms} | ${pdf.clientP50Ms} | < ${targets.pdfP50Ms} | ${met(pdf.serverP50Ms, targets.pdfP50Ms)} |`,
      `| ${index + 1} | ${result.loadAverageAtStart.join(' / ')} | one-page image, OCR (${image.bytes} B PNG) | ${image.runs} | ${image.serverP50Ms} | ${image.serverP90Ms} | ${image.clientP50Ms} | < ${targets.imageP50Ms} | ${met(image.serverP50Ms, targets.imageP50Ms)} |`,
    ];
  });
  const bursts = results.map(
    ({ burst }, index) =>
      `| ${index + 1} | ${burst.acceptMs} | ${burst.allAnalysedMs} | ${burst.validateBefore.requests} | ${burst.validateBefore.p50Ms} | ${burst.validateBefore.p99Ms} | ` +
      `${burst.validateDuring.requests} | ${burst.validateDuring.p50Ms} | ${burst.validateDuring.p99Ms} | < ${targets.validateP99Ms} | ${met(burst.validateDuring.p99Ms, targets.validateP99Ms)} |`,
  );
  return [
    '## Statement review (bench/statements.bench.ts)',
    '',
    `Measured ${measuredAt}, ${results.length} rounds, each on a fresh service process with two pool threads (shared 2-vCPU VM: other engineers' ` +
      'test suites were running, load average as shown, so single figures swing by 2x). Uploads and polls come from the bench process (fetch); ' +
      "the latency client is the bench's sequential keep-alive client (bench/lib/latency-client.ts). Analysis time is the server's completed_at - created_at.",
    '',
    '| round | load avg 1/5/15 | document | runs | analysis p50 ms | p90 | upload to report p50 ms (client) | target p50 | status |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...documents,
    '',
    `Burst: ${results[0]?.burst.uploads ?? 0} two-page PDF uploads sent at once (all answered 202), analysed one at a time (limits.statementAnalysesConcurrent), ` +
      'polled once a second; meanwhile one client loops POST /validate with 10 IBANs.',
    '',
    '| round | burst accepted ms | all analysed ms | validate alone: requests | p50 ms | p99 ms | during the burst: requests | p50 ms | p99 ms | target p99 | status |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...bursts,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runStatementsBench((line) => console.log(line));
  console.log(`-> ${writeResult('statements', result)}`);
  writeSection(resultsMdPath, 'statements', statementsSection(result, new Date().toISOString()));
}
