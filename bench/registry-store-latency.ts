/**
 * Store-level lookup latency of a SYNTHETIC scale registry (bench/registry-load.ts §scale), run as its own
 * process that opens the registry read-only, as a pool worker does. Measured in the importing process
 * instead, the 1,000,000-record figure doubled (p50 16 vs 8 us): that process still carries the import (its
 * heap, a writer's environment), which is not what a lookup in the running service meets.
 * Usage: node --import tsx bench/registry-store-latency.ts <dataDir> <records>; prints `store-latency <json>`.
 */
import { pathToFileURL } from 'node:url';
import { lookupIdentifier } from '../src/registry/store/lookup.js';
import { RegistryStore } from '../src/registry/store/registry-store.js';
import { latencyOf, type Latency } from './lib/latency-client.js';

/** A prime that divides neither 10,000 nor 1,000,000: i -> i * SCALE_STRIDE mod count visits every record once. */
export const SCALE_STRIDE = 7_919;
/** Distinct records looked up at the store in each registry: all of the small one. */
export const STORE_LOOKUPS = 10_000;
/** The first lookups are left out: V8 compiles the path while they run. */
const STORE_WARMUP_SHARE = 0.1;

/** The SYNTHETIC scale BIC of record `i`: SYNTDE + base-36 index. */
export function bicOf(i: number): string {
  return `SYNTDE${i.toString(36).toUpperCase().padStart(5, '0')}`;
}

/**
 * Existing BICs looked up at the store, every record at most once: a repeated record would come from the
 * decoded-record cache, and random picks repeat far more in 10,000 records than in 1,000,000, so growth
 * would measure the cache instead of the registry size.
 */
export function storeLatency(store: RegistryStore, count: number, lookups: number): Latency {
  if (lookups > count)
    throw new Error(`${lookups} distinct lookups need at least as many records (${count})`);
  const samples: number[] = [];
  for (let i = 0; i < lookups; i++) {
    const bic = bicOf((i * SCALE_STRIDE) % count);
    const started = performance.now();
    const hit = lookupIdentifier(store, bic, 'bic', 25);
    samples.push(performance.now() - started);
    if (hit.records.length !== 1)
      throw new Error(`scale lookup of ${bic} found ${hit.records.length}`);
  }
  return latencyOf(samples.slice(Math.floor(lookups * STORE_WARMUP_SHARE)));
}

async function main(): Promise<void> {
  const [dataDir, records] = process.argv.slice(2);
  if (dataDir === undefined || records === undefined)
    throw new Error('usage: registry-store-latency.ts <dataDir> <records>');
  const store = RegistryStore.openReader(dataDir);
  try {
    process.stdout.write(
      `store-latency ${JSON.stringify(storeLatency(store, Number(records), STORE_LOOKUPS))}\n`,
    );
  } finally {
    await store.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `registry-store-latency failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
