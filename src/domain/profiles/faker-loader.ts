import type * as FakerPackage from '@faker-js/faker';

/**
 * @faker-js/faker with every locale costs a thread about 35 MB resident (bench/RESULTS.md "Memory"), and only
 * profile requests use it, so it is loaded on the first one: an op that draws profiles awaits loadFaker() before
 * it runs the (synchronous) profile engine, which reads the module through loadedFaker(). Loading is module
 * evaluation only; the values faker draws come from our row rng, so the output does not depend on when it loaded.
 */
let loaded: typeof FakerPackage | undefined;
let loading: Promise<typeof FakerPackage> | undefined;

export async function loadFaker(): Promise<void> {
  if (loaded !== undefined) return;
  loading ??= import('@faker-js/faker');
  loaded = await loading;
}

export function loadedFaker(): typeof FakerPackage {
  if (loaded === undefined)
    throw new Error('faker is not loaded: an op that draws profiles awaits loadFaker() first');
  return loaded;
}
