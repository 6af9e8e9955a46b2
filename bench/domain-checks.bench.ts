/**
 * In-process cost of two pure domain checks, reported and never asserted (the unit tests check what they answer):
 * checkRoutingList over 1,000 mixed routing numbers (median and p99 of 2,000 runs), and one German account check
 * with every Bundesbank method round-robin (ns per check). Writes bench/results/domain-checks.json and its
 * section of bench/RESULTS.md.
 *
 *   node --import tsx bench/domain-checks.bench.ts
 */
import { loadavg } from 'node:os';
import { checkGermanAccount, germanMethods } from '../src/domain/iban/national/de/index.js';
import { checkRoutingList, generateRoutingNumbers } from '../src/domain/routing/index.js';
import { requestKeyOf, rowRng } from '../src/domain/rng.js';
import { resultsMdPath } from './lib/report.js';
import { round, writeResult } from './lib/results.js';
import { writeSection } from './lib/sections.js';

/** Runs for a stable median and p99 on a noisy 2-vCPU VM; the first ones warm the JIT and are not counted. */
const routingRuns = 2_000;
const warmUpRuns = 50;
/** Checks per timed German run: large enough to amortise the timer's resolution. */
const germanChecks = 200_000;

interface DomainChecks {
  readonly loadAverageAtStart: number[];
  readonly routingList: {
    readonly items: number;
    readonly runs: number;
    readonly medianMs: number;
    readonly p99Ms: number;
  };
  readonly germanCheck: {
    readonly checks: number;
    readonly methods: number;
    readonly nsPerCheck: number;
  };
}

function routingListTimings(): DomainChecks['routingList'] {
  const valid = generateRoutingNumbers(rowRng(requestKeyOf('perf', 'aba'), 0), 800).map(
    (row) => row.routing_number,
  );
  const inputs = [
    ...valid,
    ...valid.slice(0, 200).map((n, i) => (i % 2 === 0 ? `${n.slice(0, 8)}X` : n.slice(1))),
  ];
  const timings: number[] = [];
  for (let run = 0; run < warmUpRuns + routingRuns; run++) {
    const start = performance.now();
    checkRoutingList(inputs);
    if (run >= warmUpRuns) timings.push(performance.now() - start);
  }
  timings.sort((a, b) => a - b);
  const at = (q: number) =>
    timings[Math.min(timings.length - 1, Math.floor(q * timings.length))] ?? Number.NaN;
  return {
    items: inputs.length,
    runs: routingRuns,
    medianMs: round(at(0.5), 4),
    p99Ms: round(at(0.99), 4),
  };
}

function germanCheckTiming(): DomainChecks['germanCheck'] {
  const accounts = Array.from({ length: 1000 }, (_, index) =>
    String(index * 7_919_231)
      .padStart(10, '0')
      .slice(-10),
  );
  const run = (): number => {
    let passed = 0;
    for (let index = 0; index < germanChecks; index++) {
      const method = germanMethods[index % germanMethods.length] ?? '00';
      if (
        checkGermanAccount(method, '13051172', accounts[index % accounts.length] ?? '') === 'passed'
      )
        passed++;
    }
    return passed;
  };
  run(); // warm-up, so the figure is not dominated by compilation
  const start = process.hrtime.bigint();
  run();
  const nsPerCheck = Number(process.hrtime.bigint() - start) / germanChecks;
  return { checks: germanChecks, methods: germanMethods.length, nsPerCheck: round(nsPerCheck, 0) };
}

function section(result: DomainChecks): string {
  const { routingList: r, germanCheck: g } = result;
  return [
    '## Domain checks in process (bench/domain-checks.bench.ts)',
    '',
    `Load average at start ${result.loadAverageAtStart.join(' / ')} (2-core VM shared with other engineers' work).`,
    '',
    `- checkRoutingList over ${r.items} mixed numbers (800 valid, 100 with a letter, 100 one digit short): ` +
      `median ${r.medianMs} ms, p99 ${r.p99Ms} ms over ${r.runs} runs (target: well under 5 ms).`,
    `- German account check, ${g.methods} Bundesbank methods round-robin: ${g.nsPerCheck} ns per check (${g.checks} checks).`,
  ].join('\n');
}

const result: DomainChecks = {
  loadAverageAtStart: loadavg().map((value) => round(value, 2)),
  routingList: routingListTimings(),
  germanCheck: germanCheckTiming(),
};
console.log(section(result));
console.log(`wrote ${writeResult('domain-checks', result)}`);
writeSection(resultsMdPath, 'domain-checks', section(result));
