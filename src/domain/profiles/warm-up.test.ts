import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requestKeyOf, rowRng } from '../rng.js';
import { loadEmbeddedDefault } from '../../registry/embedded-default.js';
import { createMemoryDirectory } from '../../registry/memory-directory.js';
import { buildProfileRecord } from './engine.js';
import { warmProfileCountries } from './warm-up.js';

const bank = createMemoryDirectory(loadEmbeddedDefault());
const today = new Date(Date.UTC(2026, 10, 24));
const key = requestKeyOf('warm-up-test', '{}');

function people(): unknown[] {
  // Countries with their own faker locale, one without (fallback) and the US (no IBAN).
  return ['DE', 'FR', 'PL', 'MT', 'US'].map((countryCode, index) =>
    buildProfileRecord(
      { countryCode, gender: undefined, ageMin: 18, ageMax: 80, withoutIban: countryCode === 'US' },
      rowRng(key, index),
      { bank, today },
    ),
  );
}

test('warming every covered country fails none and changes no later profile', async () => {
  const before = people();
  assert.deepEqual(await warmProfileCountries(bank, today), []);
  assert.deepEqual(people(), before);
});
