import type { Faker, Randomizer } from '@faker-js/faker';
import type { Rng } from '../rng.js';
import { localeDefinitions } from './countries.js';
import { loadedFaker } from './faker-loader.js';
import { ProfileFaker } from './faker-patterns.js';

/**
 * Faker draws from our own counter-based generator (src/domain/rng.ts) through faker's Randomizer port, so a
 * profile is a pure function of (request key, row) like every other seeded row, and no per-profile seeding is
 * needed: reseeding faker's Mersenne Twister costs 12-90 us per profile (measured, the higher figure on the busy
 * machine), pointing the randomizer at the profile's rng costs nothing.
 */
class RowRandomizer implements Randomizer {
  rng: Rng | undefined;

  // Arrow properties: faker calls next() detached from the object.
  readonly next = (): number => {
    if (this.rng === undefined) throw new Error('profile faker used without a row rng');
    return this.rng.nextU32() / 4_294_967_296;
  };

  /** Seeding goes through the row rng; faker's own seed() is never used. */
  readonly seed = (): void => undefined;
}

/**
 * One Faker per locale chain, built once per thread (building one merges the locale tables) and reused by every
 * profile. Drawing is synchronous, so no other profile can interleave on the same instance.
 */
interface Entry {
  readonly faker: ProfileFaker;
  readonly randomizer: RowRandomizer;
}
const cache = new Map<string, Entry>();
const byChain = new WeakMap<readonly string[], Entry>();

/** The profile calls (names, street, city, job) of the cached Faker, bound to the row rng. */
export function profileFakerFor(chain: readonly string[], rng: Rng): ProfileFaker {
  // profileLocaleOf hands out the same chain array per country: found by identity without joining it per profile.
  let entry = byChain.get(chain);
  if (entry === undefined) {
    const key = chain.join('>');
    entry = cache.get(key);
    if (entry === undefined) {
      const randomizer = new RowRandomizer();
      entry = {
        faker: new ProfileFaker(
          new (loadedFaker().Faker)({ locale: localeDefinitions(chain), randomizer }),
        ),
        randomizer,
      };
      cache.set(key, entry);
    }
    byChain.set(chain, entry);
  }
  entry.randomizer.rng = rng;
  return entry.faker;
}

/** The cached Faker itself, bound to the row rng (for calls the profile engine does not compile). */
export function fakerFor(chain: readonly string[], rng: Rng): Faker {
  return profileFakerFor(chain, rng).faker;
}
