/**
 * In-process throughput of the profile engine on the execute path (authenticate, validation, gate, credits,
 * the op): POST /profile one request at a time (DE and Random alternating) and a bulk dataset of 10,000 DE
 * rows with include_profiles, inline (no pool). A quick before/after figure for engine changes; the full
 * latency bench over HTTP is profiles.bench.ts.
 *
 *   node --import tsx bench/profiles-throughput.ts        (npm run bench:profiles-throughput)
 */
import { loadavg } from 'node:os';
import type { AnyOp } from '../src/contract/op.js';
import { ibanBulkDataset } from '../src/ops/iban/bulk-dataset.js';
import { profileGenerate } from '../src/ops/profiles/profile.js';
import { withInlineService } from './lib/inline-service.js';
import { median } from './lib/results.js';

const profileRuns = 2_000;
const warmUpRuns = 300;
const bulkRows = 10_000;
const bulkRuns = 3;

const bulkOp: AnyOp = ibanBulkDataset;
const profileOp: AnyOp = profileGenerate;

async function main(): Promise<void> {
  await withInlineService([bulkOp, profileOp], async (service, identity) => {
    const profile = async (run: number) =>
      JSON.stringify(
        (await service.execute(profileOp, { country: run % 2 === 0 ? 'DE' : 'Random' }, identity))
          .output,
      );
    for (let run = 0; run < warmUpRuns; run++) await profile(run);
    const started = performance.now();
    for (let run = 0; run < profileRuns; run++) await profile(run);
    const profileMs = performance.now() - started;
    const bulk: number[] = [];
    for (let run = 0; run <= bulkRuns; run++) {
      const from = performance.now();
      const outcome = await service.execute(
        bulkOp,
        { country: 'DE', quantity: bulkRows, include_profiles: true },
        identity,
      );
      JSON.stringify(outcome.output);
      if (run > 0) bulk.push(performance.now() - from);
    }
    const bulkMs = median(bulk);
    console.log(
      JSON.stringify({
        profilesPerSecond: Math.round((profileRuns / profileMs) * 1000),
        profileMeanMs: Number((profileMs / profileRuns).toFixed(3)),
        bulk10kWithProfilesMedianMs: Math.round(bulkMs),
        bulkRowsPerSecond: Math.round((bulkRows / bulkMs) * 1000),
        loadAverage: loadavg().map((load) => Number(load.toFixed(2))),
      }),
    );
  });
}

await main();
