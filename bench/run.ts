/**
 * `npm run bench`: every driver in turn, each writing bench/results/<name>.json, then bench/RESULTS.md.
 *   --only=micro,pool,rest,floor,grpc,profile   run a subset (the others keep their previous JSON)
 *   --report                      only re-render RESULTS.md from the JSON files
 * Bounded: about 3.5 minutes in total; all traffic on 127.0.0.1; every server it starts is stopped.
 */
import { runGrpcLoad } from './grpc-load.js';
import { runMicro } from './micro.bench.js';
import { runPoolThreshold } from './pool-threshold.js';
import { loadAll } from './lib/all-results.js';
import { writeResultsMd } from './lib/report.js';
import { writeResult } from './lib/results.js';
import { runRestProfile } from './profile-rest.js';
import { runRestFloorSection } from './rest-floor.js';
import { runRestLoad } from './rest-load.js';

const drivers: Record<
  string,
  { readonly file: string; readonly run: (log: (line: string) => void) => Promise<unknown> }
> = {
  micro: { file: 'micro', run: runMicro },
  pool: { file: 'pool-threshold', run: runPoolThreshold },
  rest: { file: 'rest-load', run: runRestLoad },
  // After rest: its budgets come from the REST load run just written.
  floor: { file: 'rest-floor', run: runRestFloorSection },
  grpc: { file: 'grpc-load', run: runGrpcLoad },
  profile: { file: 'rest-profile', run: runRestProfile },
};

function selected(argv: readonly string[]): string[] {
  if (argv.includes('--report')) return [];
  const only = argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
  if (only === undefined) return Object.keys(drivers);
  const names = only.split(',').filter((name) => name !== '');
  const unknown = names.filter((name) => !(name in drivers));
  if (unknown.length > 0)
    throw new Error(
      `unknown driver(s) ${unknown.join(', ')}; known: ${Object.keys(drivers).join(', ')}`,
    );
  return names;
}

async function main(): Promise<number> {
  const started = performance.now();
  const failures: Record<string, string> = {};
  for (const name of selected(process.argv.slice(2))) {
    const driver = drivers[name]!;
    const t0 = performance.now();
    try {
      const result = await driver.run((line) => console.log(line));
      console.log(
        `bench: ${name} done in ${((performance.now() - t0) / 1000).toFixed(1)} s -> ${writeResult(driver.file, result)}`,
      );
    } catch (error) {
      failures[name] =
        error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
      console.error(
        `bench: ${name} FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    }
  }
  console.log(
    `bench: wrote ${writeResultsMd(loadAll(failures))} (total ${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  return Object.keys(failures).length === 0 ? 0 : 1;
}

process.exitCode = await main();
