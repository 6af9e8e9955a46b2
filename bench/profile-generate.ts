import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './lib/child.js';
import { runAutocannon, type LoadFigures, type PostTarget } from './lib/http-load.js';
import { startIbanqa } from './lib/ibanqa-process.js';
import { round, writeResult } from './lib/results.js';

/**
 * Where the CPU of a served /generate or /bulk-dataset JSON request goes: a V8 CPU profile of every thread of the
 * service (main and pool workers) under load, each sample charged to the nearest project frame on its stack
 * (a native such as JSON.stringify or a regex counts for the project function that called it), grouped as
 * generation (src/domain: random draws, check digits), row objects (the ops that assemble rows), serialization
 * (src/render), pool hand-over, transport, GC and the rest.
 */
/** Long enough for the pool threads and JIT to settle. */
const warmupSeconds = 4;
/** A profiled start on a loaded 2-core machine (the first start imports the embedded registry). */
const startWithinMs = 120_000;
const loadSeconds = 8;

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
  readonly children?: readonly number[];
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

type Category =
  'generation' | 'row objects' | 'serialization' | 'pool hand-over' | 'transport' | 'gc' | 'other';

const categoryOfFile: readonly [RegExp, Category][] = [
  [/\/src\/render\//, 'serialization'],
  [/\/src\/domain\//, 'generation'],
  [/\/src\/ops\/(iban|registry)\//, 'row objects'],
  [/\/src\/pool\/|\/workers\/|piscina/, 'pool hand-over'],
  [/\/src\/transport\//, 'transport'],
];

function projectFile(url: string): boolean {
  return url.includes('/src/') || url.includes('/workers/') || url.includes('piscina');
}

function categoryOf(url: string): Category {
  for (const [pattern, category] of categoryOfFile) if (pattern.test(url)) return category;
  return 'other';
}

/** Per node: the category of the nearest frame on its stack that is project code (itself included). */
function nodeCategories(profile: CpuProfile): Map<number, Category> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const categories = new Map<number, Category>();
  for (const node of profile.nodes) {
    if (node.callFrame.functionName === '(garbage collector)') {
      categories.set(node.id, 'gc');
      continue;
    }
    let at: number | undefined = node.id;
    let category: Category = 'other';
    while (at !== undefined) {
      const url = byId.get(at)?.callFrame.url ?? '';
      if (projectFile(url)) {
        category = categoryOf(url);
        break;
      }
      at = parent.get(at);
    }
    categories.set(node.id, category);
  }
  return categories;
}

const waiting = /^\((idle)\)$|atomicsWaitLoop/;

/** Busy µs per category inside the load window (the threads' profiles share one monotonic clock). */
function categoryTimes(
  profile: CpuProfile,
  window: { readonly fromUs: number; readonly toUs: number },
  into: Map<Category, number>,
  functions: Map<string, number>,
): void {
  const { fromUs, toUs } = window;
  const categories = nodeCategories(profile);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    const frame = byId.get(id)?.callFrame;
    if (at < fromUs || at > toUs || frame === undefined || waiting.test(frame.functionName)) return;
    const category = categories.get(id) ?? 'other';
    into.set(category, (into.get(category) ?? 0) + delta);
    const file = frame.url.replace(pathToFileURL(repoRoot).href, '').replace(repoRoot, '');
    const name = `${frame.functionName || '(anonymous)'} ${file}`;
    functions.set(name, (functions.get(name) ?? 0) + delta);
  });
}

interface Scenario {
  readonly name: string;
  readonly path: string;
  readonly body: Record<string, unknown>;
  /** Inline: enough to keep the main thread busy; pooled: no more than the pool takes without refusing 503. */
  readonly connections: number;
}

const scenarios: readonly Scenario[] = [
  {
    name: 'generate 100 rows, bank details, JSON (inline)',
    path: '/api/v1/generate',
    body: { country: 'DE', quantity: 100, include_bank_details: true },
    connections: 8,
  },
  {
    name: 'bulk-dataset 5,000 rows, bank details, JSON (pool)',
    path: '/api/v1/bulk-dataset',
    body: { country: 'DE', quantity: 5_000, include_bank_details: true, output: 'json' },
    connections: 2,
  },
];

export interface ScenarioProfile {
  readonly scenario: string;
  readonly load: LoadFigures;
  /** CPU per answered request over all threads, and its share per category. */
  readonly cpuUsPerRequest: number;
  readonly shares: Readonly<Record<string, number>>;
  readonly topFunctions: readonly { readonly name: string; readonly percent: number }[];
}

/**
 * Pool threads start and compile their modules on first use: as many first answers as connections (so every
 * thread the load uses has started), twice, out of the load window.
 */
async function firstAnswers(port: number, target: PostTarget, connections: number): Promise<void> {
  const one = async () => {
    const response = await fetch(`http://127.0.0.1:${port}${target.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...target.headers },
      body: target.bodies[0] ?? '{}',
    });
    const text = await response.text();
    if (response.status !== 200)
      throw new Error(`${target.path} answered ${response.status}: ${text}`);
  };
  for (let round = 0; round < 2; round++)
    await Promise.all(Array.from({ length: connections }, one));
}

async function profileScenario(scenario: Scenario): Promise<ScenarioProfile> {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-prof-'));
  try {
    const service = await startIbanqa({}, ['--cpu-prof', `--cpu-prof-dir=${dir}`], startWithinMs);
    // Distinct seeds: every request generates its own rows, as distinct callers would.
    const bodies = Array.from({ length: 64 }, (_, index) =>
      JSON.stringify({ ...scenario.body, seed: `profile-${index}` }),
    );
    const target = {
      port: service.httpPort,
      path: scenario.path,
      headers: { 'x-api-key': service.unlimitedKey },
      bodies,
    };
    let load: LoadFigures;
    let shutdownMs: number;
    try {
      await firstAnswers(service.httpPort, target, scenario.connections);
      await runAutocannon(target, scenario.connections, warmupSeconds);
      load = await runAutocannon(target, scenario.connections, loadSeconds);
    } finally {
      const stopping = performance.now();
      await service.stop();
      shutdownMs = performance.now() - stopping;
    }
    const totals = new Map<Category, number>();
    const functions = new Map<string, number>();
    const profiles = readdirSync(dir)
      .filter((file) => file.endsWith('.cpuprofile'))
      .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as CpuProfile);
    // The main thread ends last: the load window is the stretch before its shutdown, on every thread.
    const toUs = Math.max(...profiles.map((profile) => profile.endTime)) - shutdownMs * 1000;
    const window = { fromUs: toUs - load.seconds * 1000 * 1000, toUs };
    for (const profile of profiles) categoryTimes(profile, window, totals, functions);
    const busyUs = [...totals.values()].reduce((sum, us) => sum + us, 0);
    return {
      scenario: scenario.name,
      load,
      cpuUsPerRequest: round(busyUs / Math.max(1, load.requests)),
      shares: Object.fromEntries(
        [...totals.entries()]
          .sort((a, b) => b[1] - a[1])
          .map(([category, us]) => [category, round((us / busyUs) * 100, 1)]),
      ),
      topFunctions: [...functions.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15)
        .map(([name, us]) => ({ name, percent: round((us / busyUs) * 100, 1) })),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const results: ScenarioProfile[] = [];
  for (const scenario of scenarios) {
    const result = await profileScenario(scenario);
    console.log(JSON.stringify(result, null, 2));
    results.push(result);
  }
  console.log(`wrote ${writeResult('generate-profile', results)}`);
}
