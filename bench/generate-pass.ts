import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { AnyOp, CallerView } from '../src/contract/op.js';
import type { RequestKey } from '../src/domain/rng.js';
import { compileInputValidator } from '../src/ops/framework/input-validation.js';
import { ibanBulkDataset } from '../src/ops/iban/bulk-dataset.js';
import { drawRows } from '../src/ops/iban/generated-answer.js';
import { generatePlan, ibanGenerate } from '../src/ops/iban/generate.js';
import { loadEmbeddedDefault } from '../src/registry/embedded-default.js';
import { createMemoryDirectory } from '../src/registry/memory-directory.js';
import { outputJsonBytes, outputJsonView } from '../src/render/json-bytes.js';
import { ContextFactory } from '../src/service/context.js';
import { requestKeyFor } from '../src/service/request-key.js';
import { median, round, writeResult } from './lib/results.js';

/**
 * In-process CPU per /generate and /bulk-dataset JSON answer: the general path (run, then the JSON renderer) against
 * the one-pass writer (runJson, then jsonView), and the rows' random draws alone (drawRows: the generator's work,
 * no row objects, no JSON), alternating within each round; the median of the rounds. A pooled answer is copied out
 * of the reused buffer, as a worker does. CPU time (process.cpuUsage), not wall time: the machine is shared.
 */
const rounds = 7;

const bank = createMemoryDirectory(loadEmbeddedDefault());
const contexts = new ContextFactory({ bank }, () => new Date('2026-03-01T12:00:00Z'), 'bench');
const paid: CallerView = { keyId: 'bench', plan: 'business', paid: true };
const free: CallerView = { keyId: 'bench', plan: 'free', paid: false };

interface Scenario {
  readonly name: string;
  readonly op: AnyOp;
  readonly raw: Record<string, unknown>;
  readonly caller: CallerView;
  /** Answers per round and path: about a tenth of a second of work each. */
  readonly answers: number;
  /** A pool worker copies its answer into a Buffer of its own (outputJsonBytes, Buffer.from). */
  readonly pooled: boolean;
}

const scenarios: readonly Scenario[] = [
  {
    name: 'generate DE 100 rows, bank details, paid',
    op: ibanGenerate,
    raw: { country: 'DE', quantity: 100, include_bank_details: true },
    caller: paid,
    answers: 60,
    pooled: false,
  },
  {
    name: 'generate FR 100 rows, no bank details, free',
    op: ibanGenerate,
    raw: { country: 'FR', quantity: 100 },
    caller: free,
    answers: 60,
    pooled: false,
  },
  {
    name: 'bulk-dataset DE 1,000 rows, bank details (inline)',
    op: ibanBulkDataset,
    raw: { country: 'DE', quantity: 1_000, include_bank_details: true },
    caller: paid,
    answers: 6,
    pooled: false,
  },
  {
    name: 'bulk-dataset DE 5,000 rows, bank details (pool worker)',
    op: ibanBulkDataset,
    raw: { country: 'DE', quantity: 5_000, include_bank_details: true },
    caller: paid,
    answers: 2,
    pooled: true,
  },
];

interface Request {
  readonly input: unknown;
  readonly requestKey: RequestKey;
}

/** Distinct seeds, so each answer draws its own rows (as distinct requests do). */
function requestsOf(scenario: Scenario, round: number): Request[] {
  const validate = compileInputValidator(scenario.op);
  return Array.from({ length: scenario.answers }, (_, index) => {
    const input = validate({ ...scenario.raw, seed: `bench ${round} ${index}` });
    const { op } = scenario;
    const requestKey = requestKeyFor(
      op.keyScope ?? op.name,
      op.seedOf?.(input),
      op.rowParameters?.(input) ?? input,
    );
    return { input, requestKey };
  });
}

type Path = 'general' | 'one-pass' | 'draws only';
const paths: readonly Path[] = ['general', 'one-pass', 'draws only'];
let sink = 0;

async function answer(scenario: Scenario, path: Path, request: Request): Promise<void> {
  const { op, caller, pooled } = scenario;
  const context = contexts.contextFor(op, { requestKey: request.requestKey, caller, rowStart: 0 });
  if (path === 'general') {
    const output = await op.run(request.input, context);
    sink += pooled ? outputJsonBytes(output).length : outputJsonView(output).length;
  } else if (path === 'one-pass') {
    const view = (await op.runJson?.(request.input, context))?.jsonView();
    if (view === undefined) throw new Error(`${op.name} writes no JSON of its own`);
    sink += pooled ? Buffer.from(view).length : view.length;
  } else {
    const input = request.input as Parameters<typeof generatePlan>[0];
    const plan = generatePlan({ ...input, quantity: 1 }, context);
    sink += drawRows(plan, context, (input as { quantity: number }).quantity).rows.length;
  }
}

/** CPU µs per answer of one path over one round's requests. */
async function cpuPerAnswer(scenario: Scenario, path: Path, requests: Request[]): Promise<number> {
  const before = process.cpuUsage();
  for (const request of requests) await answer(scenario, path, request);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requests.length;
}

export interface PassFigures {
  readonly scenario: string;
  /** Median CPU µs per answer over the rounds, per path. */
  readonly medianUs: Readonly<Record<Path, number>>;
  /** Share of the general path's CPU that is row objects and JSON (general minus draws only). */
  readonly rowsAndJsonPercent: number;
  /** CPU saved per answer by the one-pass writer, from the medians. */
  readonly savedPercent: number;
  /** The same, paired within each round (both paths ran back to back on the same requests), median over rounds. */
  readonly savedPerRoundPercent: number;
  readonly rounds: readonly Readonly<Record<Path, number>>[];
}

export async function runGeneratePass(log: (line: string) => void = console.log) {
  const loadBefore = loadavg();
  // Warm-up: every path compiled and every bank's fragments encoded before the first measured round.
  for (const scenario of scenarios)
    for (const path of paths)
      for (const request of requestsOf(scenario, -1)) await answer(scenario, path, request);
  const figures: PassFigures[] = [];
  for (const scenario of scenarios) {
    const measured: Record<Path, number>[] = [];
    for (let index = 0; index < rounds; index++) {
      const requests = requestsOf(scenario, index);
      const round = {} as Record<Path, number>;
      // Alternating order within a round, so neither path always runs first after a GC.
      const order = index % 2 === 0 ? paths : [...paths].reverse();
      for (const path of order) round[path] = round2(await cpuPerAnswer(scenario, path, requests));
      measured.push(round);
    }
    const medianUs = Object.fromEntries(
      paths.map((path) => [path, round2(median(measured.map((round) => round[path])))]),
    ) as Record<Path, number>;
    const general = medianUs.general;
    figures.push({
      scenario: scenario.name,
      medianUs,
      rowsAndJsonPercent: round(((general - medianUs['draws only']) / general) * 100, 1),
      savedPercent: round(((general - medianUs['one-pass']) / general) * 100, 1),
      savedPerRoundPercent: round(
        median(measured.map((round) => (1 - round['one-pass'] / round.general) * 100)),
        1,
      ),
      rounds: measured,
    });
    log(
      `${scenario.name}: general ${general} µs, one-pass ${medianUs['one-pass']} µs, draws only ${medianUs['draws only']} µs`,
    );
  }
  return { loadAverage: { before: loadBefore, after: loadavg() }, rounds, figures, sink };
}

function round2(value: number): number {
  return round(value, 0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runGeneratePass();
  console.log(JSON.stringify(result.loadAverage));
  console.log(`wrote ${writeResult('generate-pass', result)}`);
}
