// The compiled profile calls must draw exactly what faker draws: the reference here is faker itself, a separate
// Faker instance per locale chain driven by the same counter-based generator through faker's Randomizer port.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Faker, type Randomizer } from '@faker-js/faker';
import { countryFormats } from '../iban/countries.js';
import { requestKeyOf, rowRng, type Rng } from '../rng.js';
import { localeDefinitions, profileLocaleOf } from './countries.js';
import { ProfileFaker } from './faker-patterns.js';
import { loadFaker } from './faker-loader.js';

// The service loads faker on the first profile request; these tests call the engine directly.
await loadFaker();

const key = requestKeyOf('faker-patterns-test', '{}');
const rowsPerChain = 400;

function randomizerOver(rng: () => Rng): Randomizer {
  return { next: () => rng().nextU32() / 4_294_967_296, seed: () => undefined };
}

/** Every locale chain a profile can use: the IBAN countries (covered or fallback) and the US. */
const chains = [
  ...new Map(
    [...countryFormats.map((format) => format.code), 'US'].map((code) => [
      profileLocaleOf(code).chain.join('>'),
      profileLocaleOf(code).chain,
    ]),
  ).values(),
];

it('covers every locale chain of the engine', () => {
  assert.ok(chains.length >= 30, `${chains.length} chains`);
});

for (const chain of chains) {
  it(`draws as faker does for ${chain.join(' > ')}`, () => {
    let compiledRng = rowRng(key, 0);
    let referenceRng = rowRng(key, 0);
    const compiled = new ProfileFaker(
      new Faker({
        locale: localeDefinitions(chain),
        randomizer: randomizerOver(() => compiledRng),
      }),
    );
    const reference = new Faker({
      locale: localeDefinitions(chain),
      randomizer: randomizerOver(() => referenceRng),
    });
    for (let row = 0; row < rowsPerChain; row++) {
      compiledRng = rowRng(key, row, 5);
      referenceRng = rowRng(key, row, 5);
      const sex = row % 2 === 0 ? 'female' : 'male';
      const ours = [
        compiled.firstName(sex),
        compiled.lastName(sex),
        compiled.lastName(),
        compiled.streetAddress(),
        compiled.city(),
        compiled.jobTitle(),
      ];
      const theirs = [
        reference.person.firstName(sex),
        reference.person.lastName(sex),
        reference.person.lastName(),
        reference.location.streetAddress(false),
        reference.location.city(),
        reference.person.jobTitle(),
      ];
      assert.deepEqual(ours, theirs, `row ${row}`);
      // Same number of draws: both generators are at the same point afterwards.
      assert.equal(compiledRng.nextU32(), referenceRng.nextU32(), `row ${row}: draw count`);
    }
  });
}

it('hands patterns it does not model to faker (calls with arguments)', () => {
  let rng = rowRng(key, 1);
  let referenceRng = rowRng(key, 1);
  const compiled = new ProfileFaker(
    new Faker({
      locale: localeDefinitions(['de', 'en', 'base']),
      randomizer: randomizerOver(() => rng),
    }),
  );
  const reference = new Faker({
    locale: localeDefinitions(['de', 'en', 'base']),
    randomizer: randomizerOver(() => referenceRng),
  });
  for (let row = 0; row < 50; row++) {
    rng = rowRng(key, row, 9);
    referenceRng = rowRng(key, row, 9);
    const pattern =
      '{{location.city_name}} {{number.int({"min":10,"max":99})}} {{person.last_name.generic}}';
    assert.equal(compiled.fake(pattern), reference.helpers.fake(pattern));
    assert.equal(rng.nextU32(), referenceRng.nextU32());
  }
});

it('draws as faker does where locale data shadows a method and names are gendered and generic', () => {
  // A locale of the test's own: the shipped ones never reach these branches of faker's walk.
  const custom = {
    person: {
      jobType: ['Shadow', 'Ghost', 'Echo'],
      last_name: {
        female: ['Fa', 'Fb', 'Fc'],
        male: ['Ma', 'Mb'],
        generic: ['Ga', 'Gb', 'Gc', 'Gd'],
      },
      last_name_pattern: {
        female: [
          { weight: 1, value: '{{person.last_name.female}}' },
          { weight: 3, value: '{{person.last_name.female}}-{{person.last_name.generic}}' },
        ],
        male: [{ weight: 2, value: '{{person.last_name.male}}' }],
        generic: [{ weight: 1, value: '{{person.last_name.generic}}' }],
      },
      job_title_pattern: ['{{person.jobType}} {{person.jobArea}}', '{{person.lastName}}'],
    },
    location: {
      street_address: {
        normal: '{{person.jobType}} {{location.street}} {{location.buildingNumber}}',
      },
      // Values that are patterns themselves (faker scans them again) and a literal with a stray brace.
      city_name: [
        '{{person.firstName}}burg',
        'Plainfield',
        '{{location.city_suffix}} {{person.lastName}}',
      ],
      city_pattern: [
        '{{location.city_name}}',
        '{{person.firstName}}ville',
        '{{location.city_name}} {{location.city_name}}',
        '{x} {{location.city_name}}',
      ],
    },
  };
  const locale = [custom, ...localeDefinitions(['en', 'base'])] as never;
  let rng = rowRng(key, 2);
  let referenceRng = rowRng(key, 2);
  const compiled = new ProfileFaker(new Faker({ locale, randomizer: randomizerOver(() => rng) }));
  const reference = new Faker({ locale, randomizer: randomizerOver(() => referenceRng) });
  for (let row = 0; row < 300; row++) {
    rng = rowRng(key, row, 11);
    referenceRng = rowRng(key, row, 11);
    const sex = row % 2 === 0 ? 'female' : 'male';
    assert.deepEqual(
      [
        compiled.lastName(sex),
        compiled.lastName(),
        compiled.streetAddress(),
        compiled.city(),
        compiled.jobTitle(),
      ],
      [
        reference.person.lastName(sex),
        reference.person.lastName(),
        reference.location.streetAddress(false),
        reference.location.city(),
        reference.person.jobTitle(),
      ],
      `row ${row}`,
    );
    assert.equal(rng.nextU32(), referenceRng.nextU32(), `row ${row}: draw count`);
  }
});
