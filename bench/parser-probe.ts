// Parser probe: what each uWS build answers to every request-head shape of test/api/http-parser.test.ts.
// Runs the real service twice in its own process: once as it starts here (trufflesuite 20.30.0 on glibc 2.36),
// once on the uWS 20.57.0 binary made to load on glibc 2.36 with a shim (bench/lib/glibc-shim.ts explains the
// two steps). Every shape is sent at once on its own connection and watched for 15 s (longer than uWS's idle
// timeout); meanwhile a GET /healthz on another connection shows whether the others are still served.
// Not part of npm test; needs gcc. Usage: flock /tmp/ibanqa-machine.lock node --import tsx bench/parser-probe.ts
// Results: bench/results/parser-probe-<date>.json and a Markdown table on stdout.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { limits } from '../src/limits.js';
import { binaryFileName } from '../src/transport/http/uws-build.js';
import { rawExchange, type RawReply } from '../test/helpers/raw-http.js';
import {
  fields,
  getHealthz,
  malformedHeads,
  servedHeads,
  smugglingHeads,
  type HeadShape,
} from '../test/helpers/http-shapes.js';
import { repoRoot } from './lib/child.js';
import { buildIsoc23Shim, weakenVersionNeeds } from './lib/glibc-shim.js';
import { startIbanqa } from './lib/ibanqa-process.js';

const watchMs = 15_000;
/** Where each build's header-field limit lies (Host included). */
const headerCounts: HeadShape[] = [48, 49, 98, 99].map((count) => ({
  name: `${count} header fields`,
  chunks: [getHealthz(fields(count - 1))],
}));
const require = createRequire(import.meta.url);

/** Loaded with --import before tsx: the front's `require` of the 20.57.0 binary gets the patched copy. */
const preloadSource = `import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
const require = createRequire(${JSON.stringify(join(repoRoot, 'package.json'))});
const real = join(dirname(require.resolve('@btc-vision/uwebsockets.js')), ${JSON.stringify(binaryFileName())});
const patched = require(process.env.PROBE_UWS_BINARY);
require.cache[real] = { id: real, filename: real, loaded: true, exports: patched, children: [], paths: [] };
`;

interface Observed {
  shape: string;
  outcome: RawReply['outcome'];
  statusLine: string | null;
  closed: boolean;
  reset: boolean;
  ms: number;
}

function describeReply(shape: HeadShape, reply: RawReply): Observed {
  return {
    shape: shape.name,
    outcome: reply.outcome,
    statusLine: reply.outcome === 'answer' ? reply.head.split('\r\n')[0]! : null,
    closed: reply.closed,
    reset: reply.reset,
    ms: reply.elapsedMs,
  };
}

async function probe(label: string, env: NodeJS.ProcessEnv, nodeArgs: readonly string[]) {
  const service = await startIbanqa({ IBANQA_LOG_LEVEL: 'info', ...env }, nodeArgs);
  try {
    const build = /"build":"([^"]+)"/.exec(service.child.stderr())?.[1] ?? 'unknown';
    const shapes = [...malformedHeads, ...smugglingHeads, ...servedHeads, ...headerCounts];
    const replies = shapes.map((shape) =>
      rawExchange(service.httpPort, shape.chunks, {
        gapMs: shape.gapMs ?? 10,
        waitMs: watchMs,
        afterAnswerMs: 300,
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const sideStarted = Date.now();
    const side = await fetch(`http://127.0.0.1:${service.httpPort}/healthz`, {
      signal: AbortSignal.timeout(5_000),
    }).then(
      (response) => response.status,
      (error: unknown) => String(error),
    );
    const sideMs = Date.now() - sideStarted;
    const observed = (await Promise.all(replies)).map((reply, index) =>
      describeReply(shapes[index]!, reply),
    );
    const aliveAfter = await fetch(`http://127.0.0.1:${service.httpPort}/healthz`).then(
      (response) => response.status,
      (error: unknown) => String(error),
    );
    return { label, build, observed, sideRequest: { status: side, ms: sideMs }, aliveAfter };
  } finally {
    await service.stop();
  }
}

function cell(row: Observed): string {
  const when = row.ms < 1_000 ? `${row.ms} ms` : `${(row.ms / 1000).toFixed(1)} s`;
  if (row.outcome === 'answer')
    return `${row.statusLine?.replace(/^HTTP\/1\.1 /, '')}${row.closed ? ' + close' : ''} (${when})`;
  if (row.outcome === 'close') return `${row.reset ? 'reset' : 'close'}, no answer (${when})`;
  return `no answer, no close in ${watchMs / 1000} s`;
}

const work = mkdtempSync(join(tmpdir(), 'ibanqa-parser-probe-'));
try {
  const shim = buildIsoc23Shim(work);
  const original = join(dirname(require.resolve('@btc-vision/uwebsockets.js')), binaryFileName());
  const patched = join(work, binaryFileName());
  const weakened = weakenVersionNeeds(original, patched, ['GLIBC_2.38']);
  writeFileSync(join(work, 'preload.mjs'), preloadSource);

  const old = await probe('20.30', {}, []);
  const current = await probe(
    '20.57',
    {
      LD_PRELOAD: shim,
      PROBE_UWS_BINARY: patched,
      UWS_HTTP_MAX_HEADERS_SIZE: String(limits.httpHeadBytesServed),
    },
    ['--import', join(work, 'preload.mjs')],
  );
  // The parser test file itself, on the 20.57.0 binary: its strict branch (4xx or close within a second) runs there.
  const testRun = spawnSync(
    process.execPath,
    [
      '--import',
      join(work, 'preload.mjs'),
      '--import',
      'tsx',
      '--test',
      'test/api/http-parser.test.ts',
    ],
    {
      cwd: repoRoot,
      encoding: 'utf8',
      env: {
        ...process.env,
        LD_PRELOAD: shim,
        PROBE_UWS_BINARY: patched,
        UWS_HTTP_MAX_HEADERS_SIZE: String(limits.httpHeadBytesServed),
      },
    },
  );
  const testSummary = Object.fromEntries(
    [...testRun.stdout.matchAll(/^# (tests|pass|fail|todo|skipped) (\d+)$/gm)].map(
      (match) => [match[1] ?? '', Number(match[2])] as const,
    ),
  );
  const result = {
    date: new Date().toISOString(),
    loadavg: loadavg(),
    watchMs,
    weakened,
    fronts: [old, current],
    parserTestOn2057: { exitCode: testRun.status, ...testSummary },
  };
  mkdirSync('bench/results', { recursive: true });
  const file = `bench/results/parser-probe-${result.date.slice(0, 10)}.json`;
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  const lines = [`| Shape | ${old.build} | ${current.build} |`, '|---|---|---|'];
  old.observed.forEach((row, index) =>
    lines.push(`| ${row.shape} | ${cell(row)} | ${cell(current.observed[index]!)} |`),
  );
  lines.push(
    `| GET /healthz on a second connection 1 s in | ${old.sideRequest.status} (${old.sideRequest.ms} ms) | ${current.sideRequest.status} (${current.sideRequest.ms} ms) |`,
  );
  lines.push(
    `| GET /healthz after the ${watchMs / 1000} s | ${old.aliveAfter} | ${current.aliveAfter} |`,
  );
  process.stdout.write(
    `${lines.join('\n')}\n\ntest/api/http-parser.test.ts on 20.57.0: ${JSON.stringify(result.parserTestOn2057)}\nweakened: ${weakened.join(', ')}; load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}\n${file}\n`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
