import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countryFormats } from '../iban/countries.js';
import { requestKeyOf, rowRng } from '../rng.js';
import { loadEmbeddedDefault } from '../../registry/embedded-default.js';
import { createMemoryDirectory } from '../../registry/memory-directory.js';
import { publishedTestCardNumbers } from './cards.js';
import { coveredCountryCodes } from './countries.js';
import { buildProfileRecord, type ProfileRecord } from './engine.js';
import { scoreProfile } from './quality.js';
import { loadFaker } from './faker-loader.js';

// The service loads faker on the first profile request; these tests call the engine directly.
await loadFaker();

const bank = createMemoryDirectory(loadEmbeddedDefault());
const today = new Date(Date.UTC(2026, 10, 24));
const key = requestKeyOf('profile-engine-test', '{}');
const perCountry = 1_000;

// ITU-T E.164 country calling codes, written out here rather than taken from libphonenumber.
const callingCodes: Record<string, string> = {
  AT: '43',
  AZ: '994',
  BE: '32',
  BR: '55',
  CH: '41',
  CZ: '420',
  DE: '49',
  DK: '45',
  ES: '34',
  FI: '358',
  FR: '33',
  GB: '44',
  GE: '995',
  GR: '30',
  HR: '385',
  HU: '36',
  IE: '353',
  IL: '972',
  IT: '39',
  LU: '352',
  LV: '371',
  MD: '373',
  MK: '389',
  NL: '31',
  NO: '47',
  PL: '48',
  PT: '351',
  RO: '40',
  RS: '381',
  RU: '7',
  SE: '46',
  SI: '386',
  SK: '421',
  TR: '90',
  UA: '380',
  US: '1',
};

/** ISO 13616 mod 97-10, written out here. */
function ibanMod97(iban: string): number {
  const moved = iban.slice(4) + iban.slice(0, 4);
  const digits = [...moved].map((c) => (/\d/.test(c) ? c : String(c.charCodeAt(0) - 55))).join('');
  return Number(BigInt(digits) % 97n);
}

function luhn(pan: string): boolean {
  const sum = [...pan]
    .reverse()
    .map(Number)
    .reduce((acc, d, i) => acc + (i % 2 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0);
  return sum % 10 === 0;
}

function profile(
  countryCode: string,
  i: number,
  extra: Partial<{ gender: 'female' | 'male'; ageMin: number; ageMax: number }> = {},
): ProfileRecord {
  return buildProfileRecord(
    {
      countryCode,
      gender: extra.gender,
      ageMin: extra.ageMin ?? 18,
      ageMax: extra.ageMax ?? 80,
      withoutIban: countryCode === 'US',
    },
    rowRng(key, i, 1),
    { bank, today },
  );
}

function ageOf(dateOfBirth: string): number {
  const [y, m, d] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const before =
    today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d);
  return today.getUTCFullYear() - y - (before ? 1 : 0);
}

describe('profile engine: 1,000 seeded profiles per covered country', () => {
  for (const countryCode of coveredCountryCodes) {
    it(`${countryCode}: consistent and scoring at least 85`, () => {
      for (let i = 0; i < perCountry; i++) {
        const p = profile(countryCode, i);
        const registryBank =
          p.bank?.bank_code == null ? undefined : bank.bankOf(countryCode, p.bank.bank_code);
        const quality = scoreProfile(p, { registryBank, national: bank, today });
        assert.ok(
          quality.score >= 85,
          `${countryCode} #${i} scored ${quality.score}: ${JSON.stringify(quality.reasons)}`,
        );
        assert.equal(p.country_code, countryCode);
        assert.match(p.email, /^[a-z0-9._]+@example\.(com|net|org)$/, p.email);
        assert.ok(
          p.phone?.replace(/\s/g, '').startsWith(`+${callingCodes[countryCode]}`),
          `${p.phone} has +${callingCodes[countryCode]}`,
        );
        assert.equal(ageOf(p.date_of_birth), p.age);
        assert.ok(p.age >= 18 && p.age <= 80);
        assert.equal(p.address.country, p.country);
        if (p.iban !== null) {
          assert.equal(p.iban.slice(0, 2), countryCode);
          assert.equal(ibanMod97(p.iban), 1, p.iban);
        }
        if (p.bank?.swift_bic != null) assert.equal(p.bank.swift_bic.slice(4, 6), countryCode);
        assert.match(p.credit_card.number, /^\d{4}\*+\d{4}$/);
        assert.match(p.credit_card.cvv, /^\*{3,4}$/);
      }
    });
  }
});

describe('profile engine: request parameters', () => {
  it('gender and age bounds are honoured', () => {
    for (let i = 0; i < 300; i++) {
      const p = profile('DE', i, { gender: 'female', ageMin: 30, ageMax: 31 });
      assert.equal(p.gender, 'female');
      assert.ok(p.age === 30 || p.age === 31, String(p.age));
      assert.equal(ageOf(p.date_of_birth), p.age);
    }
  });
  it('every IBAN-registry country gets a profile with its own IBAN', () => {
    for (const format of countryFormats) {
      const p = profile(format.code, 0);
      assert.equal(p.iban?.slice(0, 2), format.code);
      assert.equal(ibanMod97(p.iban as string), 1);
      assert.equal(p.locale_fallback, !coveredCountryCodes.includes(format.code));
    }
  });
  it('the US profile has a never-issued SSN, a phone outside 555-01xx by default and no IBAN', () => {
    for (let i = 0; i < 200; i++) {
      const p = profile('US', i);
      assert.equal(p.iban, null);
      assert.match(p.ssn as string, /^9\d\d-(0[1-9]|[1-4]\d)-\d{4}$/);
      assert.doesNotMatch(p.phone as string, /^\+1 \d{3} 555 01\d\d$/);
      assert.equal(p.phone_range, 'synthetic_format_valid');
    }
  });
  it('British phones are not Ofcom drama numbers unless asked for', () => {
    for (let i = 0; i < 200; i++)
      assert.doesNotMatch(profile('GB', i).phone as string, /^\+44 7700 900\d{3}$/);
  });
  it('cards come from the published test numbers, all Luhn-valid', () => {
    for (const pan of publishedTestCardNumbers) assert.ok(luhn(pan), pan);
    for (let i = 0; i < 200; i++) {
      const card = profile('FR', i).credit_card;
      assert.ok(
        publishedTestCardNumbers.some(
          (pan) => pan.startsWith(card.number.slice(0, 4)) && pan.endsWith(card.number.slice(-4)),
        ),
      );
    }
  });
  it('the same key and row give the same profile; another row another one', () => {
    assert.deepEqual(profile('IT', 7), profile('IT', 7));
    assert.notDeepEqual(profile('IT', 7), profile('IT', 8));
  });
});

describe('quality score', () => {
  const base = profile('DE', 3);
  const context = {
    registryBank: base.bank?.bank_code == null ? undefined : bank.bankOf('DE', base.bank.bank_code),
    national: bank,
    today,
  };
  it('a clean profile is good', () => assert.ok(scoreProfile(base, context).score >= 85));
  it('placeholders, test words and test domains lower the score with reasons', () => {
    const weak: ProfileRecord = {
      ...base,
      first_name: 'N/A',
      occupation: 'Lorem ipsum',
      address: { ...base.address, street: 'mail test.com 1', postal_code: '00000' },
    };
    const quality = scoreProfile(weak, context);
    assert.deepEqual(
      new Set(quality.reasons.filter((r) => r.code === 'weak_marker').map((r) => r.field)),
      new Set(['first_name', 'occupation', 'address.street', 'address.postal_code']),
    );
    assert.ok(quality.score <= 80);
  });
  it('a reserved email domain is not a weak marker, a test mailbox is', () => {
    assert.equal(
      scoreProfile({ ...base, email: base.email.replace(/@.*/, '@example.org') }, context).reasons
        .length,
      0,
    );
    assert.ok(
      scoreProfile({ ...base, email: 'test@mailinator.com' }, context).reasons.some(
        (r) => r.field === 'email',
      ),
    );
  });
  it('a foreign IBAN, a wrong BIC and a broken tax id are inconsistencies', () => {
    const broken: ProfileRecord = {
      ...base,
      iban: 'FR7630006000011234567890189',
      tax_id: '12345678901',
      bank: { ...(base.bank as NonNullable<ProfileRecord['bank']>), swift_bic: 'BNPAFRPPXXX' },
    };
    const codes = scoreProfile(broken, context).reasons.map((r) => r.code);
    for (const code of [
      'iban_country_mismatch',
      'bic_country_mismatch',
      'bic_mismatch',
      'national_id_invalid',
    ])
      assert.ok(codes.includes(code), code);
  });
  it('a phone of another plan or a broken German number is invalid for the country', () => {
    for (const phone of ['+33 6 12 34 56 78', '+49 1512 34', '+49 0000 0000000']) {
      assert.ok(
        scoreProfile({ ...base, phone }, context).reasons.some((r) => r.code === 'phone_invalid'),
        phone,
      );
    }
    assert.ok(!scoreProfile(base, context).reasons.some((r) => r.code === 'phone_invalid'));
  });
  it('tiers follow the bands', () => {
    const empty: ProfileRecord = {
      ...base,
      first_name: '',
      last_name: 'Test',
      email: '',
      phone: null,
      occupation: 'asdf',
      tax_id: '11111111111',
      iban: 'FR7630006000011234567890189',
      address: { ...base.address, street: '', city: 'N/A', postal_code: '00000' },
    };
    const quality = scoreProfile(empty, context);
    assert.equal(
      quality.tier,
      quality.score >= 85 ? 'good' : quality.score >= 70 ? 'review' : 'needs_review',
    );
    assert.ok(quality.score < 70);
  });
});
