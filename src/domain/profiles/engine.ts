import { countryFormatOf } from '../iban/countries.js';
import { generateIban } from '../iban/generate.js';
import { rngBelow, rngPick, type Rng } from '../rng.js';
import type { BankInfo, BankSource } from '../banks/bank-source.js';
import { syntheticCard, type MaskedCard } from './cards.js';
import { profileLocaleOf } from './countries.js';
import { birthDateFor } from './dates.js';
import { syntheticEmail } from './email.js';
import { profileFakerFor } from './faker-cache.js';
import type { ProfileFaker } from './faker-patterns.js';
import { ssnSchemes, taxIdSchemes } from './national-ids/index.js';
import { occupationFor } from './occupations.js';
import { personName } from './own-names.js';
import {
  syntheticPhone,
  type PhoneRange,
  type PhoneRangeRequest,
  type PhoneSlot,
} from './phones.js';
import { placeFor, type Place } from './places.js';
import { postalFormats } from './postal-codes.js';

export type { Gender } from './gender.js';
import type { Gender } from './gender.js';
/** How the profile's bank relates to the registry: a registry bank, an IBAN whose bank the registry does not know, or none. */
export type BankMatch = 'matched' | 'no_match' | 'synthetic';

/** An account fixed before the person is drawn (a bulk row's IBAN, or the IBAN a request sent). */
export interface GivenAccount {
  readonly iban: string;
  readonly bank: BankInfo | undefined;
}

export interface ProfileSpec {
  readonly countryCode: string;
  /** undefined: drawn at random. */
  readonly gender: Gender | undefined;
  readonly ageMin: number;
  readonly ageMax: number;
  readonly account?: GivenAccount;
  /** Bank context resolved from the registry: the IBAN is generated at this bank. */
  readonly bank?: BankInfo;
  /** No IBAN at all (the US profile: its account is a routing number and an account number). */
  readonly withoutIban?: boolean;
  /** A number valid in the country's plan (default) or one of its reserved fiction ranges. */
  readonly phoneRange?: PhoneRangeRequest;
  /** A dataset row's phone slot: rows of one request with different slots never share a number. */
  readonly phoneSlot?: PhoneSlot;
}

export interface ProfileEnv {
  readonly bank: BankSource;
  /** The reference date for ages and card expiry (a UTC day). */
  readonly today: Date;
}

export interface ProfileBank {
  readonly bank_code: string | null;
  readonly bank_name: string | null;
  readonly swift_bic: string | null;
  readonly bank_city: string | null;
  readonly bank_match: BankMatch;
}

/** Everything one synthetic person has; both response shapes and the bulk columns are views of it. */
export interface ProfileRecord {
  readonly synthetic: true;
  readonly country_code: string;
  readonly country: string;
  readonly locale: string;
  readonly locale_fallback: boolean;
  readonly first_name: string;
  readonly last_name: string;
  readonly gender: Gender;
  readonly date_of_birth: string;
  readonly age: number;
  readonly email: string;
  readonly phone: string | null;
  readonly phone_range: PhoneRange | null;
  readonly address: {
    readonly street: string;
    readonly postal_code: string | null;
    readonly city: string;
    readonly country: string;
  };
  /** US: the state (USPS code) the city and ZIP belong to; null elsewhere. */
  readonly region: string | null;
  readonly occupation: string;
  readonly tax_id: string | null;
  readonly tax_id_scheme: string | null;
  readonly ssn: string | null;
  readonly credit_card: MaskedCard;
  readonly iban: string | null;
  readonly bank: ProfileBank | null;
}

const usCountryName = 'United States';

function accountFor(
  spec: ProfileSpec,
  rng: Rng,
  env: ProfileEnv,
): { iban: string; bank: ProfileBank } | null {
  if (spec.withoutIban === true) return null;
  if (spec.account !== undefined)
    return { iban: spec.account.iban, bank: bankView(spec.account.bank, true) };
  const format = countryFormatOf(spec.countryCode);
  if (format === undefined) return null;
  const banks = banksFitting(
    env.bank.generationBanksOf(spec.countryCode),
    format.bankCode.length,
    spec.countryCode,
  );
  const bank = spec.bank ?? (banks.length > 0 ? rngPick(rng, banks) : undefined);
  const generated = generateIban(
    format,
    rng,
    bank === undefined ? {} : { bankCode: bank.bankCode },
    env.bank,
  );
  return { iban: generated.iban, bank: bankView(bank, false) };
}

/**
 * Registry banks a profile of this country may bank with: those generation draws from (live customer codes whose
 * national check the engine completes; generation-banks.ts), whose code fits the IBAN's bank-code field (a source
 * may list longer national codes), and the BIC, if any, is of the same country (French bank codes include
 * Monaco's banks, whose BICs say MC).
 */
const fittingBanks = new WeakMap<readonly BankInfo[], readonly BankInfo[]>();
function banksFitting(
  banks: readonly BankInfo[],
  length: number,
  countryCode: string,
): readonly BankInfo[] {
  let fitting = fittingBanks.get(banks);
  if (fitting === undefined) {
    fitting = banks.filter(
      (bank) =>
        bank.bankCode.length === length &&
        (bank.bic === null || bank.bic.slice(4, 6) === countryCode),
    );
    fittingBanks.set(banks, fitting);
  }
  return fitting;
}

/** A given IBAN whose bank the registry does not know is an explicit no-match; a generated one without registry banks is synthetic. */
function bankView(bank: BankInfo | undefined, given: boolean): ProfileBank {
  if (bank === undefined)
    return {
      bank_code: null,
      bank_name: null,
      swift_bic: null,
      bank_city: null,
      bank_match: given ? 'no_match' : 'synthetic',
    };
  return {
    bank_code: bank.bankCode,
    bank_name: bank.name,
    swift_bic: bank.bic,
    bank_city: bank.city,
    bank_match: 'matched',
  };
}

/**
 * Where the person lives: a gazetteer place of the country (with its US state and ZIP), else, for a country
 * the gazetteer lacks, a registry bank's city, else faker's pattern city.
 */
function placeOf(countryCode: string, rng: Rng, env: ProfileEnv, faker: ProfileFaker): Place {
  const place = placeFor(countryCode, rng);
  if (place !== null) return place;
  const cities = bankCities(env.bank.banksOf(countryCode));
  const city = cities.length > 0 ? rngPick(rng, cities) : faker.city();
  return { city, region: null, postalCode: null };
}

/** The registry cities of a country's banks (in bank order), once per bank list rather than once per profile. */
const citiesOfBanks = new WeakMap<readonly BankInfo[], readonly string[]>();
function bankCities(banks: readonly BankInfo[]): readonly string[] {
  let cities = citiesOfBanks.get(banks);
  if (cities === undefined) {
    cities = banks
      .map((bank) => bank.city)
      .filter((city): city is string => city !== null && city !== '');
    citiesOfBanks.set(banks, cities);
  }
  return cities;
}

/**
 * One synthetic person for a country. Pure: the same spec, rng state, registry and reference day give the
 * same record. Draw order is fixed (changing it changes every seeded profile: pinned by a golden test).
 */
export function buildProfileRecord(spec: ProfileSpec, rng: Rng, env: ProfileEnv): ProfileRecord {
  const locale = profileLocaleOf(spec.countryCode);
  const faker = profileFakerFor(locale.chain, rng);
  const gender: Gender = spec.gender ?? (rngBelow(rng, 2) === 0 ? 'female' : 'male');
  const { first: firstName, last: lastName } = personName(spec.countryCode, gender, faker, rng);
  const { dateOfBirth, age } = birthDateFor(rng, spec.ageMin, spec.ageMax, env.today);
  const subject = { firstName, lastName, sex: gender, dateOfBirth };
  const country = countryFormatOf(spec.countryCode)?.name ?? usCountryName;
  const postal = postalFormats[spec.countryCode];
  const street = faker.streetAddress();
  const place = placeOf(spec.countryCode, rng, env, faker);
  const phone = syntheticPhone(spec.countryCode, rng, spec.phoneRange, spec.phoneSlot);
  const taxScheme = taxIdSchemes[spec.countryCode];
  const ssnScheme = ssnSchemes[spec.countryCode];
  const account = accountFor(spec, rng, env);
  return {
    synthetic: true,
    country_code: spec.countryCode,
    country,
    locale: locale.chain[0] ?? 'en',
    locale_fallback: locale.fallback,
    first_name: firstName,
    last_name: lastName,
    gender,
    date_of_birth: dateOfBirth,
    age,
    email: syntheticEmail(firstName, lastName, rng),
    phone: phone?.number ?? null,
    phone_range: phone?.range ?? null,
    address: {
      street,
      postal_code: place.postalCode ?? postal?.generate(rng) ?? null,
      city: place.city,
      country,
    },
    region: place.region,
    occupation: occupationFor(rng),
    tax_id: taxScheme?.generate(subject, rng) ?? null,
    tax_id_scheme: taxScheme?.id ?? null,
    ssn: ssnScheme?.generate(subject, rng) ?? null,
    credit_card: publicCard(syntheticCard(rng, env.today.getUTCFullYear())),
    iban: account?.iban ?? null,
    bank: account?.bank ?? null,
  };
}

function publicCard(card: ReturnType<typeof syntheticCard>): MaskedCard {
  return { type: card.type, number: card.number, expiry: card.expiry, cvv: card.cvv };
}
