import { pathToFileURL } from 'node:url';
import IBAN from 'iban';
import { isValidIBAN } from 'ibantools';
import { Bench, type Task } from 'tinybench';
import {
  countryFormatOf,
  countryFormats,
  generateIban,
  ibanMod97,
  validateIban,
} from '../src/domain/iban/index.js';
import { nationalRuleOf } from '../src/domain/iban/national/index.js';
import { noRegistryContext, type NationalContext } from '../src/domain/iban/national/types.js';
import { rowRng } from '../src/domain/rng.js';
import type { BankDirectory } from '../src/registry/bank-directory.js';
import { openBenchDirectory } from './lib/directory.js';
import {
  benchKey,
  countryClasses,
  mixedIbans,
  syntheticGermanMethodContext,
} from './lib/iban-list.js';
import {
  countEngine,
  countIbanJs,
  countIbantools,
  countMod97,
  mutate,
  rejectedCountries,
} from './lib/micro-loops.js';
import { round, writeResult } from './lib/results.js';

/** The list: 100,000 mixed-country IBANs, the same list for every implementation. */
const listSize = 100_000;
/** Breakdown and German lists: enough rows to time in milliseconds, quick to build. */
const subsetListSize = 30_000;
/** Rows generated per tinybench iteration, per country class. */
const generateRowsPerIteration = 5_000;
/** Each iteration is a whole list, so few iterations suffice; two warm-ups let V8 optimise the loops. */
const benchOptions = { time: 0, iterations: 10, warmupIterations: 2, warmupTime: 0 } as const;
/** Targets from the issue "Benchmarks". */
export const microTargets = { engineVsIbantools: 10, nationalVsMod97Max: 1.5 } as const;

export interface MicroTaskFigure {
  readonly task: string;
  readonly items: number;
  readonly meanMs: number;
  readonly p50Ms: number;
  readonly rmePercent: number;
  readonly itemsPerSecond: number;
  readonly accepted?: number;
}

export interface MicroResult {
  readonly listSize: number;
  readonly validation: readonly MicroTaskFigure[];
  /** Validator cost with and without a national rule, each against bare mod 97 on the same list. */
  readonly breakdown: readonly MicroTaskFigure[];
  readonly generation: readonly (MicroTaskFigure & { readonly countries: number })[];
  readonly ratios: Readonly<Record<string, number>>;
  readonly mutatedRejected: Readonly<Record<string, number>>;
  readonly mutatedCount: number;
  /** Countries of our list a peer library rejects (its country table differs from the SWIFT registry's). */
  readonly peerRejectedCountries: Readonly<Record<string, readonly string[]>>;
  /** German bank codes in the service directory, and how many carry a Bundesbank check method. */
  readonly germanBankCodes: { readonly total: number; readonly withMethod: number };
}

let sink = 0; // results are consumed so V8 cannot drop the loops

type Job = readonly [name: string, items: number, run: () => number];

async function runJobs(jobs: readonly Job[]): Promise<MicroTaskFigure[]> {
  const bench = new Bench(benchOptions);
  for (const [name, , run] of jobs) bench.add(name, () => void (sink += run()));
  await bench.run();
  return bench.tasks.map((task: Task, index) => {
    const [, items, run] = jobs[index]!;
    const result = task.result;
    if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
    const { mean, p50, rme } = result.latency;
    return {
      task: task.name,
      items,
      meanMs: round(mean, 2),
      p50Ms: round(p50, 2),
      rmePercent: round(rme, 1),
      itemsPerSecond: Math.round(items / (mean / 1000)),
      accepted: run(),
    };
  });
}

function validationJobs(list: readonly string[], directory: NationalContext): Job[] {
  return [
    ['ibanqa validateIban (service directory)', list.length, () => countEngine(list, directory)],
    [
      'ibanqa validateIban (noRegistryContext)',
      list.length,
      () => countEngine(list, noRegistryContext),
    ],
    ['bare mod 97 (ibanMod97(normalized) === 1)', list.length, () => countMod97(list)],
    ['ibantools.isValidIBAN', list.length, () => countIbantools(list)],
    ['iban IBAN.isValid', list.length, () => countIbanJs(list)],
  ];
}

/** Is the gap to bare mod 97 the national rules, or the verdict around them? */
function breakdownJobs(): Job[] {
  const ruled = mixedIbans(
    subsetListSize,
    noRegistryContext,
    countryFormats.filter((f) => nationalRuleOf(f.code) !== undefined),
  );
  const plain = mixedIbans(
    subsetListSize,
    noRegistryContext,
    countryFormats.filter((f) => nationalRuleOf(f.code) === undefined),
  );
  const german = syntheticGermanMethodContext();
  const germanList = mixedIbans(subsetListSize, german, [countryFormatOf('DE')!]);
  return [
    [
      'validateIban, countries WITHOUT a national rule',
      plain.length,
      () => countEngine(plain, noRegistryContext),
    ],
    ['bare mod 97, countries WITHOUT a national rule', plain.length, () => countMod97(plain)],
    [
      'validateIban, countries WITH a national rule (DE not_checked)',
      ruled.length,
      () => countEngine(ruled, noRegistryContext),
    ],
    ['bare mod 97, countries WITH a national rule', ruled.length, () => countMod97(ruled)],
    [
      'validateIban, DE with SYNTHETIC method per bank code',
      germanList.length,
      () => countEngine(germanList, german),
    ],
    ['bare mod 97, same DE list', germanList.length, () => countMod97(germanList)],
  ];
}

function generationJobs(directory: NationalContext): { jobs: Job[]; countries: number[] } {
  const classes = countryClasses(directory);
  const jobs = classes.map((cls): Job => [
    cls.name,
    generateRowsPerIteration,
    () => {
      let chars = 0;
      for (let row = 0; row < generateRowsPerIteration; row++) {
        chars += generateIban(
          cls.formats[row % cls.formats.length]!,
          rowRng(benchKey, row),
          {},
          cls.context,
        ).iban.length;
      }
      return chars > 0 ? generateRowsPerIteration : 0;
    },
  ]);
  return { jobs, countries: classes.map((cls) => cls.formats.length) };
}

function meanOf(figures: readonly MicroTaskFigure[], prefix: string): number {
  const found = figures.find((entry) => entry.task.startsWith(prefix));
  if (found === undefined) throw new Error(`no micro task ${prefix}`);
  return found.meanMs;
}

function ratiosOf(
  validation: readonly MicroTaskFigure[],
  breakdown: readonly MicroTaskFigure[],
): MicroResult['ratios'] {
  const engine = meanOf(validation, 'ibanqa validateIban (service');
  return {
    engineVsIbantools: round(meanOf(validation, 'ibantools') / engine, 2),
    engineVsIban: round(meanOf(validation, 'iban IBAN') / engine, 2),
    engineNoRegistryVsIbantools: round(
      meanOf(validation, 'ibantools') / meanOf(validation, 'ibanqa validateIban (noRegistry'),
      2,
    ),
    nationalVsMod97: round(engine / meanOf(validation, 'bare mod 97'), 2),
    noRuleCountriesVsMod97: round(
      meanOf(breakdown, 'validateIban, countries WITHOUT') /
        meanOf(breakdown, 'bare mod 97, countries WITHOUT'),
      2,
    ),
    ruleCountriesVsMod97: round(
      meanOf(breakdown, 'validateIban, countries WITH ') /
        meanOf(breakdown, 'bare mod 97, countries WITH '),
      2,
    ),
    germanSyntheticMethodsVsMod97: round(
      meanOf(breakdown, 'validateIban, DE') / meanOf(breakdown, 'bare mod 97, same DE'),
      2,
    ),
  };
}

async function measure(
  directory: BankDirectory,
  log: (line: string) => void,
): Promise<MicroResult> {
  log(`micro: generating ${listSize} mixed-country IBANs (${countryFormats.length} countries)`);
  const list = mixedIbans(listSize, directory);
  log('micro: validation, 5 implementations x whole list');
  const validation = await runJobs(validationJobs(list, directory));
  log('micro: breakdown by country class');
  const breakdown = await runJobs(breakdownJobs());
  log('micro: generation per country class');
  const { jobs, countries } = generationJobs(directory);
  const generation = (await runJobs(jobs)).map((figure, index) => ({
    ...figure,
    countries: countries[index]!,
  }));
  const mutated = mutate(list);
  const checks: [string, (iban: string) => boolean][] = [
    ['ibanqa validateIban', (iban) => validateIban(iban, directory).valid],
    ['bare mod 97', (iban) => ibanMod97(iban) === 1],
    ['ibantools.isValidIBAN', (iban) => isValidIBAN(iban)],
    ['iban IBAN.isValid', (iban) => IBAN.isValid(iban)],
  ];
  return {
    listSize,
    validation,
    breakdown,
    generation,
    ratios: ratiosOf(validation, breakdown),
    mutatedRejected: Object.fromEntries(
      checks.map(([name, isValid]) => [name, mutated.filter((iban) => !isValid(iban)).length]),
    ),
    mutatedCount: mutated.length,
    peerRejectedCountries: Object.fromEntries(
      checks.slice(2).map(([name, isValid]) => [name, rejectedCountries(list, isValid)]),
    ),
    germanBankCodes: {
      total: directory.bankCodesOf('DE').length,
      withMethod: directory
        .bankCodesOf('DE')
        .filter((code) => directory.accountCheckMethod('DE', code) !== undefined).length,
    },
  };
}

/** Validation "with the embedded directory" uses the service's own directory, built in a temporary data dir. */
export async function runMicro(log: (line: string) => void = console.log): Promise<MicroResult> {
  const bench = await openBenchDirectory();
  try {
    return await measure(bench.directory, log);
  } finally {
    await bench.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runMicro();
  console.log(JSON.stringify({ ratios: result.ratios, sink: sink > 0 }, null, 2));
  console.log(`wrote ${writeResult('micro', result)}`);
}
