// Seeded profiles are pinned: the same seed, request, registry snapshot and UTC day give these values in every
// release. Changing a value below is a breaking change for every client that stored a seeded profile.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { loadEmbeddedDefault } from '../../registry/embedded-default.js';
import { createMemoryDirectory } from '../../registry/memory-directory.js';
import { requestKeyFor } from '../../service/request-key.js';
import type { RunContext } from '../framework/op.js';
import { fakerVersion } from './builtin.js';
import { profileGenerate } from './profile.js';
import { profileInput } from './request.js';
import { Value } from '@sinclair/typebox/value';

const bank = createMemoryDirectory(loadEmbeddedDefault());
const now = new Date('2026-11-24T10:00:00Z');

async function seeded(body: Record<string, unknown>) {
  const input = Value.Default(profileInput, structuredClone(body));
  assert.ok(Value.Check(profileInput, input), 'a valid profile request');
  const context: RunContext<'bank' | 'requestKey'> = {
    requestKey: requestKeyFor(profileGenerate.name, input.seed, input),
    caller: { keyId: 'k', plan: 'pro', paid: true },
    bank,
    rowStart: 0,
    now: () => now,
  };
  return (await profileGenerate.run(input, context)) as { profile: Record<string, any> };
}

const pick = (profile: Record<string, any>, fields: readonly string[]) =>
  Object.fromEntries(fields.map((field) => [field, profile[field]]));
const personal = [
  'country_code',
  'first_name',
  'last_name',
  'gender',
  'date_of_birth',
  'email',
  'phone',
  'tax_id',
  'iban',
] as const;

it('the model names the installed faker release', () => {
  const installed = JSON.parse(
    readFileSync(
      new URL('../../../node_modules/@faker-js/faker/package.json', import.meta.url),
      'utf8',
    ),
  ) as { version: string };
  assert.equal(installed.version, fakerVersion);
});

it('seeded profiles are pinned', async () => {
  const actual = {
    de: pick((await seeded({ country: 'DE', seed: 'golden' })).profile, personal),
    random: pick((await seeded({ seed: 'golden' })).profile, personal),
    it: pick(
      (
        await seeded({
          country: 'Italy',
          gender: 'female',
          age_min: 30,
          age_max: 35,
          seed: 'golden',
        })
      ).profile,
      personal,
    ),
    bank: (await seeded({ country: 'DE', swift_code: 'COBADEFFXXX', seed: 'golden' })).profile,
  };
  assert.deepEqual(actual, GOLDEN);
});

const GOLDEN = {
  de: {
    country_code: 'DE',
    first_name: 'Darius',
    last_name: 'Achilles',
    gender: 'male',
    date_of_birth: '1963-08-12',
    email: 'darius.achilles48@example.net',
    phone: '+49 176 0939469',
    tax_id: '49713252806',
    iban: 'DE35722231820494036495',
  },
  random: {
    country_code: 'LU',
    first_name: 'Michaël',
    last_name: 'Masson',
    gender: 'male',
    date_of_birth: '1976-12-28',
    email: 'michael.masson63@example.com',
    phone: '+352 80 98 69 17',
    tax_id: null,
    iban: 'LU211645199887511377',
  },
  it: {
    country_code: 'IT',
    first_name: 'Marita',
    last_name: 'Usai',
    gender: 'female',
    date_of_birth: '1993-02-25',
    email: 'marita.usai05@example.net',
    phone: '+39 439 802 1731',
    tax_id: 'SUAMRT93B65D612J',
    iban: 'IT93T0829527617072147307096',
  },
  bank: {
    synthetic: true,
    iban: 'DE40632400160006356002',
    provider: 'builtin',
    model: 'ibanqa-profiles/2 (@faker-js/faker 10.6.0)',
    model_tier: 'builtin',
    quality_score: 100,
    quality_tier: 'good',
    quality_label: 'excellent',
    quality_reasons: [],
    premium_fields_locked: false,
    profile: {
      full_name: 'Luca Balnuweit',
      country: 'Germany',
      city: 'Renningen',
      bank_account: {
        bank_name: 'Commerzbank',
        bank_website: null,
        swift_bic: 'COBADEFFXXX',
        bank_code: '63240016',
        bank_city: 'Heidenheim an der Brenz',
        bank_match: 'matched',
      },
    },
  },
};
