import { setImmediate as nextTurn } from 'node:timers/promises';
import type { BankDirectory } from '../../registry/bank-directory.js';
import { rowRng, type RequestKey } from '../rng.js';
import { coveredCountryCodes } from './countries.js';
import { buildProfileRecord } from './engine.js';
import { scoreProfile } from './quality.js';

/** Any fixed key: warm-up profiles are built and dropped, never answered. */
const warmUpKey: RequestKey = [1, 2, 3, 4];

/**
 * One throwaway profile per covered country, one country per event-loop turn, after the service listens. The first
 * profile of a country builds its faker tables and compiles its paths (measured: 127 ms over 35 countries, up to
 * 13.6 ms for one), which a client's first request per country paid. The steady-state p99 is set by V8 warming up
 * over the first few thousand calls, not by this (first 2,000 /profile after start: p99 6.5 / 4.9 ms with it, 6.5 /
 * 6.7 ms without, two starts each). Profiles depend only on their own rng, never on what ran before, so this
 * changes no output (warm-up.test.ts, golden tests). Resolves with the countries whose engine failed (none
 * expected; the caller logs them), never rejects.
 */
export async function warmProfileCountries(bank: BankDirectory, today: Date): Promise<string[]> {
  const failed: string[] = [];
  for (const [index, countryCode] of coveredCountryCodes.entries()) {
    await nextTurn();
    try {
      const record = buildProfileRecord(
        {
          countryCode,
          gender: undefined,
          ageMin: 18,
          ageMax: 80,
          withoutIban: countryCode === 'US',
        },
        rowRng(warmUpKey, index),
        { bank, today },
      );
      scoreProfile(record, { registryBank: undefined, national: bank, today });
    } catch {
      failed.push(countryCode);
    }
  }
  return failed;
}
