/**
 * What the REST targets leave per request, against what the answer alone costs to compute. The three REST
 * targets (bench/rest-load.ts) each come down to server CPU per 100-IBAN request on the one uWS thread: 1,000,000
 * IBANs/s is 10,000 requests/s, so 100 µs; 3x the peer and 25 % of the bare uWS limit follow from those servers'
 * req/s in the last REST load run (bench/results/rest-load.json, wrk). The floor is what no server of this answer can
 * skip: the same generated bodies, in a fresh process each, with no HTTP, no key, no metering: JSON.parse of the
 * body, validateList (a paid caller, the service's bank directory) and the JSON bytes of its rows; plus the HTTP work
 * for those answer bytes, which the bare uWS limit measured in that run. This VM's speed drifts by up to 2x over
 * minutes, so the same rounds also time what the node:http peer computes for each body: that ratio does not drift.
 * Run right after bench/rest-load.ts, under `flock /tmp/ibanqa-machine.lock`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isValidIBAN } from 'ibantools';
import { validateJsonAnswer, validateList } from '../src/ops/iban/validate.js';
import { outputJsonView } from '../src/render/json-bytes.js';
import type { CallerView } from '../src/contract/op.js';
import { spawnTs } from './lib/child.js';
import { openBenchDirectory } from './lib/directory.js';
import { dec, int, table } from './lib/format.js';
import { startIbanqa } from './lib/ibanqa-process.js';
import { resultsMdPath } from './lib/report.js';
import { machineFacts } from './lib/machine.js';
import { median, readResult, round, writeResult } from './lib/results.js';
import { writeSection } from './lib/sections.js';
import {
  generatedBodies,
  restSettings,
  restTargets,
  serverNames,
  type RestResult,
} from './rest-load.js';

export const floorSettings = {
  /** Fresh processes: V8 optimises the same code differently from start to start (RESULTS.md, commit A/B). */
  processes: 3,
  rounds: 7,
  requestsPerRound: 2_000,
} as const;

/** The unlimited demo key's view: paid, so every matched row carries bank data and bank_intelligence. */
const paidCaller: CallerView = { keyId: 'key_bench', plan: 'unlimited', paid: true };

const parts = ['parse', 'validate', 'json', 'chained', 'written', 'peer'] as const;
type Part = (typeof parts)[number];
type PartFigures = Record<Part, number>;

const partNames: Record<Part, string> = {
  parse: 'JSON.parse of the request body',
  validate: 'validateList: 100 verdicts with bank lookups and row objects',
  json: 'the JSON bytes of those rows (src/render/json-bytes.ts)',
  chained: "all three, one after another (today's general path)",
  written:
    'the answer written in one pass from bank tails (src/ops/iban/validate-answer.ts): JSON.parse, verdicts, tails copied into the reused buffer',
  peer: "the peer's answer to the same body: JSON.parse, ibantools.isValidIBAN x 100, JSON.stringify of { iban, valid }",
};

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** The answer written from bank tails must be today's bytes for every body, or its time means nothing. */
function assertWrittenSame(
  lists: readonly string[][],
  outputs: readonly unknown[],
  directory: Parameters<typeof validateList>[2],
): void {
  lists.forEach((list, index) => {
    const general = Buffer.from(outputJsonView(outputs[index]));
    const written = validateJsonAnswer(list, paidCaller, directory).jsonView();
    if (Buffer.compare(general, written) !== 0)
      throw new Error(`body ${index}: the written answer differs from the general path's bytes`);
  });
}

/** One child: median CPU µs per request of each part over the rounds. */
async function measureInProcess(bodiesFile: string): Promise<PartFigures> {
  const bodies = JSON.parse(readFileSync(bodiesFile, 'utf8')) as string[];
  const bench = await openBenchDirectory();
  try {
    const lists = bodies.map((body) => (JSON.parse(body) as { ibans: string[] }).ibans);
    const outputs = lists.map((list) => validateList(list, paidCaller, bench.directory));
    assertWrittenSame(lists, outputs, bench.directory);
    let sink = 0;
    const runs: Record<Part, (index: number) => void> = {
      parse: (index) => (sink += (JSON.parse(bodies[index] as string) as object) ? 1 : 0),
      validate: (index) =>
        (sink += validateList(lists[index] as string[], paidCaller, bench.directory).length),
      json: (index) => (sink += outputJsonView(outputs[index]).length),
      chained: (index) => {
        const { ibans } = JSON.parse(bodies[index] as string) as { ibans: string[] };
        sink += outputJsonView(validateList(ibans, paidCaller, bench.directory)).length;
      },
      written: (index) => {
        const { ibans } = JSON.parse(bodies[index] as string) as { ibans: string[] };
        sink += validateJsonAnswer(ibans, paidCaller, bench.directory).jsonView().length;
      },
      peer: (index) => {
        const { ibans } = JSON.parse(bodies[index] as string) as { ibans: string[] };
        sink += JSON.stringify(ibans.map((iban) => ({ iban, valid: isValidIBAN(iban) }))).length;
      },
    };
    const figures = {} as Record<Part, number[]>;
    for (const part of parts) figures[part] = [];
    for (let round = 0; round <= floorSettings.rounds; round++) {
      for (const part of parts) {
        const started = cpuMicros();
        for (let request = 0; request < floorSettings.requestsPerRound; request++)
          runs[part](request % bodies.length);
        // Round 0 warms every part up (V8 compiles the hot paths); it is not counted.
        if (round > 0) figures[part].push((cpuMicros() - started) / floorSettings.requestsPerRound);
      }
    }
    if (sink === 0) throw new Error('nothing was computed');
    return Object.fromEntries(parts.map((part) => [part, median(figures[part])])) as PartFigures;
  } finally {
    await bench.close();
  }
}

/**
 * The JSON part needs 10,000 rows held at once; V8 then sees nearly every row of validateList's allocation sites
 * survive and allocates later rows straight in the old generation (allocation-site pretenuring), which made
 * validateList 2-5x slower in this bench. The service holds rows only until they are sent: an A/B of the service
 * with and without this flag (two services up at once, 8 alternating wrk runs) measured 1.01x.
 */
const childNodeArgs = ['--no-allocation-site-pretenuring'];

async function measureInChild(bodiesFile: string): Promise<PartFigures> {
  const child = spawnTs('bench/rest-floor.ts', ['--measure', bodiesFile], {}, childNodeArgs);
  await new Promise<void>((resolve) => child.process.once('exit', () => resolve()));
  const line = child
    .stdout()
    .split('\n')
    .find((candidate) => candidate.startsWith('{'));
  if (child.process.exitCode !== 0 || line === undefined)
    throw new Error(`rest-floor child failed: ${child.stderr()}`);
  return JSON.parse(line) as PartFigures;
}

export interface FloorResult {
  readonly settings: typeof floorSettings;
  readonly loadAverageAtStart: readonly number[];
  /** One entry per fresh process: median CPU µs per request of each part. */
  readonly processes: readonly PartFigures[];
  /** From the REST load run the budgets come from (wrk figures). */
  readonly restLoad: {
    readonly measuredAt: string;
    readonly commit: string;
    readonly peerReqPerSec: number;
    readonly limitReqPerSec: number;
    readonly limitCpuUsPerRequest: number;
    readonly ibanqaCpuUsPerRequest: number;
    readonly responseBytes: number;
  };
}

/**
 * A server's served figures in the REST load run: its wrk runs where wrk ran, else its autocannon runs; with
 * several alternating rounds, the median round (req/s and CPU per request taken separately).
 */
function servedRun(result: RestResult, server: string) {
  const runs = result.servers.find((candidate) => candidate.server === server)?.runs ?? [];
  const wrk = runs.filter((run) => run.client === 'wrk');
  const chosen = wrk.length > 0 ? wrk : runs;
  if (chosen.length === 0) throw new Error(`bench/results/rest-load.json has no run of ${server}`);
  return {
    reqPerSec: median(chosen.map((run) => run.reqPerSec)),
    cpuUsPerRequest: median(chosen.map((run) => (run.serverCores * 1e6) / run.reqPerSec)),
  };
}

function restLoadFigures(): FloorResult['restLoad'] {
  const file = readResult<RestResult>('rest-load');
  if (file === undefined) throw new Error('run bench/rest-load.ts first: the budgets come from it');
  const limit = servedRun(file.data, serverNames.limit);
  return {
    measuredAt: file.machine.measuredAt,
    commit: file.machine.commit ?? 'unknown',
    peerReqPerSec: round(servedRun(file.data, serverNames.peer).reqPerSec),
    limitReqPerSec: round(limit.reqPerSec),
    limitCpuUsPerRequest: round(limit.cpuUsPerRequest),
    ibanqaCpuUsPerRequest: round(servedRun(file.data, serverNames.ibanqa).cpuUsPerRequest),
    responseBytes:
      file.data.servers.find((server) => server.server === serverNames.ibanqa)?.responseBytes ?? 0,
  };
}

export async function runRestFloor(
  log: (line: string) => void = console.log,
): Promise<FloorResult> {
  const restLoad = restLoadFigures();
  const loadAverageAtStart = loadavg().map((value) => round(value, 2));
  const ibanqa = await startIbanqa();
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-rest-floor-'));
  try {
    const bodiesFile = join(dir, 'bodies.json');
    writeFileSync(bodiesFile, JSON.stringify(await generatedBodies(ibanqa)));
    await ibanqa.stop();
    const processes: PartFigures[] = [];
    for (let index = 0; index < floorSettings.processes; index++) {
      const figures = await measureInChild(bodiesFile);
      log(
        `rest-floor: process ${index + 1}: ${parts.map((part) => `${part} ${dec(figures[part], 1)} µs`).join(', ')}`,
      );
      processes.push(figures);
    }
    return { settings: floorSettings, loadAverageAtStart, processes, restLoad };
  } finally {
    await ibanqa.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const span = (values: readonly number[]): string =>
  `${dec(Math.min(...values), 1)}-${dec(Math.max(...values), 1)}`;

function budgetTable(restLoad: FloorResult['restLoad'], floorLow: number): string {
  const perSecond = restTargets.ibansPerSecond / restSettings.ibansPerRequest;
  const budgets: [string, string, number][] = [
    ['1,000,000 IBANs/s', `${int(perSecond)} req/s`, perSecond],
    [
      `${restTargets.vsBaseline}x the node:http peer`,
      `${restTargets.vsBaseline} x ${int(restLoad.peerReqPerSec)} req/s`,
      restTargets.vsBaseline * restLoad.peerReqPerSec,
    ],
    [
      `${restTargets.limitShare * 100} % of the bare uWS limit`,
      `${restTargets.limitShare} x ${int(restLoad.limitReqPerSec)} req/s`,
      restTargets.limitShare * restLoad.limitReqPerSec,
    ],
  ];
  return table(
    ['target', 'means', 'budget µs per request', 'floor / budget'],
    budgets.map(([target, means, reqPerSec]) => [
      target,
      means,
      dec(1e6 / reqPerSec, 0),
      dec((floorLow * reqPerSec) / 1e6, 2),
    ]),
  );
}

function floorTable(result: FloorResult, floorLow: number): string {
  const { restLoad, processes } = result;
  return table(
    ['part', 'CPU µs per request (range over processes)'],
    [
      ...parts.map((part) => [partNames[part], span(processes.map((figures) => figures[part]))]),
      [
        `HTTP for the same answer bytes (bare uWS limit, median run, REST load run ${restLoad.measuredAt} at ${restLoad.commit})`,
        dec(restLoad.limitCpuUsPerRequest, 0),
      ],
      ['**floor: the written answer plus that HTTP, lowest**', `**${dec(floorLow, 0)}**`],
      [
        'ibanqa as served in that run (auth, metering, durable commit, GC included)',
        dec(restLoad.ibanqaCpuUsPerRequest, 0),
      ],
    ],
  );
}

export function renderFloor(result: FloorResult, measuredAt: string, commit: string): string {
  const { restLoad, processes } = result;
  // The service writes this answer from bank tails (the general path is its fallback for unusual rows).
  const floorLow =
    Math.min(...processes.map((figures) => figures.written)) + restLoad.limitCpuUsPerRequest;
  return [
    '## REST: what the targets leave per request, against what the answer costs (bench/rest-floor.ts)',
    '',
    `${measuredAt} at commit ${commit}, load average ${result.loadAverageAtStart.join(' / ')} at the start. The ` +
      `${int(restSettings.distinctBodies)} generated bodies of the REST load run (100 IBANs each, answer ` +
      `${int(restLoad.responseBytes)} bytes with bank data for the unlimited key), measured in ${processes.length} fresh ` +
      `processes, ${result.settings.rounds} rounds of ${int(result.settings.requestsPerRound)} requests each after a ` +
      'warm-up round; CPU µs per request (process.cpuUsage), median round per process, range over the processes ' +
      `(node ${childNodeArgs.join(' ')}: see the driver). No HTTP, no key, no metering, no durable commit: work any ` +
      'server of this answer must do.',
    '',
    floorTable(result, floorLow),
    '',
    "In the same rounds (a ratio that does not drift with this VM's speed, which moves by up to 2x over minutes), " +
      `ibanqa's written answer costs ${span(processes.map((figures) => figures.written / figures.peer))}x what the ` +
      "peer computes for the same body (its answer carries bank data for every matched row), and today's general " +
      `path ${span(processes.map((figures) => figures.chained / figures.written))}x the written answer. The written ` +
      "answer is checked byte for byte against the general path's for every body before the rounds.",
    '',
    'Each REST target as server CPU per request, with the one uWS thread taking every request (a second front thread ' +
      'costs more than it adds on this machine: SCALING.md):',
    '',
    budgetTable(restLoad, floorLow),
    '',
    'A floor / budget above 1 means no server of this answer reaches the target on one core of this machine, ' +
      'whatever it does about HTTP, keys or metering.',
  ].join('\n');
}

/** Runs the floor and writes its section of bench/RESULTS.md (bench/run.ts writes the JSON). */
export async function runRestFloorSection(
  log: (line: string) => void = console.log,
): Promise<FloorResult> {
  const result = await runRestFloor(log);
  const { measuredAt, commit } = machineFacts();
  writeSection(resultsMdPath, 'rest-floor', renderFloor(result, measuredAt, commit ?? 'unknown'));
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv[2] === '--measure') {
    console.log(JSON.stringify(await measureInProcess(process.argv[3] ?? '')));
  } else {
    const path = writeResult('rest-floor', await runRestFloorSection());
    console.log(`wrote ${path} and the rest-floor section of bench/RESULTS.md`);
  }
}
