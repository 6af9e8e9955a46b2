/**
 * POST /us/routing/check-list with 1,000 routing numbers: is the server time well under 5 ms?
 *
 *   node --import tsx bench/us-routing.bench.ts
 *
 * Server time is measured in-process on the execute path every transport uses (authenticate, JSON Schema
 * validation, plan gate, credit reservation, the op with the 2018 FedACH + Fedwire directories, commit) plus
 * JSON.stringify of the answer; then the same request over real HTTP (uWS, fetch client on 127.0.0.1) for the
 * round trip. Needs ../shared/registry-sources for the directory (the project ships no Fed data); without it
 * the op runs against no directory and the figures say so. Writes bench/results/us-routing.json.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { AccountStore } from '../src/accounts/account-store.js';

import { lmdbPorts } from '../src/accounts/lmdb-ports.js';
import { loadConfig } from '../src/config.js';
import { generateRoutingNumbers } from '../src/domain/routing/index.js';
import { requestKeyOf, rowRng } from '../src/domain/rng.js';
import { startService } from '../src/main.js';
import { compileInputValidator } from '../src/ops/framework/input-validation.js';
import type { AnyOp } from '../src/contract/op.js';
import { checkListRows, usRoutingCheckList } from '../src/ops/us-routing/check-list.js';
import { createMemoryDirectory } from '../src/registry/memory-directory.js';
import {
  loadRoutingDirectoryFromFiles,
  usDirectoryFilesEnv,
  type DirectoryFile,
} from '../src/registry/routing-directory-loader.js';
import { emptyRoutingDirectory, type RoutingDirectory } from '../src/registry/routing-directory.js';
import { Service } from '../src/service/execute.js';
import { resultsMdPath } from './lib/report.js';
import { round, writeResult } from './lib/results.js';
import { writeSection } from './lib/sections.js';
import { sharedMissing, sharedPath } from '../test/helpers/shared.js';

/** The list size and target. */
const listSize = 1_000;
const targetMs = 5;
/** In-process: enough runs for a stable median and p99 on a noisy 2-vCPU VM; the first ones warm the JIT. */
const inProcessRuns = 2_000;
const warmUpRuns = 200;
/** Over HTTP: sequential requests, one at a time, so latency is not queueing. */
const httpRuns = 300;
/** List mix: mostly real directory numbers (observed), some synthetic valid ones, some malformed entries. */
const directoryShare = 0.8;
const malformedShare = 0.1;

const files: DirectoryFile[] = [
  { source: 'fedach', path: sharedPath('fedach/2018-12-04/FedACHdir.txt') },
  { source: 'fedwire', path: sharedPath('fedwire/2018-12-03/fpddir.txt') },
];

function mixedList(directory: RoutingDirectory): string[] {
  const real = directory
    .search('', Math.round(listSize * directoryShare), 0)
    .results.map((target) => target.routing_number);
  const malformed = Array.from({ length: Math.round(listSize * malformedShare) }, (_, i) =>
    i % 2 === 0 ? `01100001${String.fromCharCode(65 + (i % 26))}` : String(i).padStart(8, '0'),
  );
  const synthetic = generateRoutingNumbers(
    rowRng(requestKeyOf('bench', 'us-routing'), 0),
    listSize - real.length - malformed.length,
  ).map((row) => row.routing_number);
  return [...real, ...synthetic, ...malformed];
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

function summary(timings: number[]) {
  const sorted = [...timings].sort((a, b) => a - b);
  return {
    runs: sorted.length,
    p50Ms: round(percentile(sorted, 0.5), 3),
    p99Ms: round(percentile(sorted, 0.99), 3),
    maxMs: round(sorted.at(-1) ?? Number.NaN, 3),
  };
}

/** The table's element type (ops are declared with their own input types). */
const checkListOp: AnyOp = usRoutingCheckList;

async function inProcess(directory: RoutingDirectory, list: readonly string[]) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-bench-us-'));
  const accounts = AccountStore.open(dataDir);
  try {
    const apiKey = accounts.createKey('unlimited', new Date(), 'bench').key;
    const service = new Service({
      state: lmdbPorts(accounts),
      data: { bank: createMemoryDirectory([]), routing: directory },
      runner: { runInPool: () => Promise.reject(new Error('inline only')) },
      poolThresholdRows: 1_000_000,
      validators: new Map([[checkListOp.name, compileInputValidator(checkListOp)]]),
    });
    const timings: number[] = [];
    let bytes = 0;
    for (let run = 0; run < inProcessRuns; run++) {
      const started = performance.now();
      const outcome = await service.execute(
        checkListOp,
        { routing_numbers: list },
        { apiKey, ip: '127.0.0.1' },
      );
      bytes = JSON.stringify(outcome.output).length;
      if (run >= warmUpRuns) timings.push(performance.now() - started);
    }
    return { ...summary(timings), responseBytes: bytes };
  } finally {
    await accounts.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The op's own work (verdicts + directory reads), without validation, metering or serialization. */
function opOnly(directory: RoutingDirectory, list: readonly string[]) {
  const timings: number[] = [];
  let rows = 0;
  for (let run = 0; run < inProcessRuns; run++) {
    const started = performance.now();
    rows += checkListRows(list, directory).length;
    if (run >= warmUpRuns) timings.push(performance.now() - started);
  }
  return { ...summary(timings), rowsChecked: rows };
}

async function overHttp(list: readonly string[], withDirectory: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-bench-us-http-'));
  const env = {
    IBANQA_POOL_THREADS: '1',
    [usDirectoryFilesEnv]: withDirectory ? files.map((f) => `${f.source}:${f.path}`).join(',') : '',
  };
  const running = await startService(
    loadConfig(env, { host: '127.0.0.1', httpPort: 0, grpcPort: 0, dataDir }),
    pino({ level: 'silent' }),
  );
  try {
    const key = running.demoKeys.find((created) => created.plan === 'unlimited')?.key ?? '';
    const body = JSON.stringify({ routing_numbers: list });
    const timings: number[] = [];
    for (let run = 0; run < httpRuns + warmUpRuns / 10; run++) {
      const started = performance.now();
      const response = await fetch(
        `http://127.0.0.1:${running.httpPort}/api/v1/us/routing/check-list`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body,
        },
      );
      await response.text();
      if (response.status !== 200) throw new Error(`check-list answered ${response.status}`);
      if (run >= warmUpRuns / 10) timings.push(performance.now() - started);
    }
    return summary(timings);
  } finally {
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runUsRoutingBench(log: (line: string) => void) {
  const withDirectory = !sharedMissing;
  const directory = withDirectory ? loadRoutingDirectoryFromFiles(files) : emptyRoutingDirectory;
  const list = mixedList(directory);
  log(
    `us-routing: ${list.length} numbers, directory ${withDirectory ? 'FedACH + Fedwire 2018' : 'NOT loaded (../shared missing)'}`,
  );
  const op = opOnly(directory, list);
  log(`  op alone (verdicts + directory reads): p50 ${op.p50Ms} ms, p99 ${op.p99Ms} ms`);
  const server = await inProcess(directory, list);
  log(
    `  execute path + JSON.stringify: p50 ${server.p50Ms} ms, p99 ${server.p99Ms} ms, max ${server.maxMs} ms (${server.runs} runs, ${server.responseBytes} bytes)`,
  );
  const http = await overHttp(list, withDirectory);
  log(
    `  HTTP round trip (fetch, sequential): p50 ${http.p50Ms} ms, p99 ${http.p99Ms} ms (${http.runs} requests)`,
  );
  return {
    listSize: list.length,
    directoryLoaded: withDirectory,
    targetMs,
    opOnly: op,
    serverTime: server,
    httpRoundTrip: http,
    met: server.p50Ms < targetMs,
  };
}

type UsRoutingResult = Awaited<ReturnType<typeof runUsRoutingBench>>;

/** The bench's own section of bench/RESULTS.md. */
export function usRoutingSection(result: UsRoutingResult): string {
  const row = (what: string, t: { p50Ms: number; p99Ms: number }) =>
    `| ${what} | ${t.p50Ms} | ${t.p99Ms} |`;
  return [
    '## US routing: POST /us/routing/check-list of 1,000 numbers (bench/us-routing.bench.ts)',
    '',
    `Directory ${result.directoryLoaded ? 'FedACH + Fedwire 2018 (../shared)' : 'not loaded'}; target: server time under ${result.targetMs} ms: ${result.met ? 'met' : '**NOT met**'}.`,
    '',
    '| measure | p50 ms | p99 ms |',
    '| --- | --- | --- |',
    row('op alone (verdicts + directory reads)', result.opOnly),
    row('server time (execute path + JSON serialisation)', result.serverTime),
    row('HTTP round trip (fetch, sequential)', result.httpRoundTrip),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runUsRoutingBench((line) => console.log(line));
  console.log(`-> ${writeResult('us-routing', result)}`);
  writeSection(resultsMdPath, 'us-routing', usRoutingSection(result));
}
