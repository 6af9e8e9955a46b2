import type { allLocales, LocaleDefinition } from '@faker-js/faker';
import { loadedFaker } from './faker-loader.js';

/**
 * Which faker locale speaks for each country. `covered`: faker 10.6.0 has a locale for the country itself
 * (given names, surnames, streets). Every other IBAN-registry country uses the FALLBACK: names and street names
 * from the closest language locale listed here (English when there is none; LT and IS names from own-names.ts).
 * Places (GeoNames), postal codes, phones and identifiers come from per-country data for every country.
 * Fallback profiles are labelled `locale_fallback: true` and are not held to the quality bar of covered countries.
 */
type LocaleName = keyof typeof allLocales;

/** Covered countries: own locale first, then its parent language, English and base fill the gaps faker leaves. */
const covered: Readonly<Record<string, readonly LocaleName[]>> = {
  AT: ['de_AT', 'de'],
  AZ: ['az'],
  BE: ['nl_BE', 'nl'],
  BR: ['pt_BR'],
  CH: ['de_CH', 'de'],
  CZ: ['cs_CZ'],
  DE: ['de'],
  DK: ['da'],
  ES: ['es'],
  FI: ['fi'],
  FR: ['fr'],
  GB: ['en_GB'],
  GE: ['ka_GE'],
  GR: ['el'],
  HR: ['hr'],
  HU: ['hu'],
  IE: ['en_IE'],
  IL: ['he'],
  IT: ['it'],
  LU: ['fr_LU', 'fr'],
  LV: ['lv'],
  MD: ['ro_MD', 'ro'],
  MK: ['mk'],
  NL: ['nl'],
  NO: ['nb_NO'],
  PL: ['pl'],
  PT: ['pt_PT'],
  RO: ['ro'],
  RS: ['sr_RS_latin'],
  RU: ['ru'],
  SE: ['sv'],
  SI: ['sl_SI'],
  SK: ['sk'],
  TR: ['tr'],
  UA: ['uk'],
  US: ['en_US'],
};

/** Fallback countries: the language locale for names and streets (faker has no locale for the country). */
const fallbackLanguage: Readonly<Record<string, readonly LocaleName[]>> = {
  AD: ['es'],
  AE: ['ar'],
  BH: ['ar'],
  DJ: ['fr'],
  SO: ['ar'],
  EG: ['ar'],
  IQ: ['ar'],
  JO: ['ar'],
  KW: ['ar'],
  LB: ['ar'],
  LY: ['ar'],
  MR: ['ar'],
  OM: ['ar'],
  PS: ['ar'],
  QA: ['ar'],
  SA: ['ar'],
  SD: ['ar'],
  TN: ['ar'],
  YE: ['ar'],
  CR: ['es_MX', 'es'],
  DO: ['es_MX', 'es'],
  GT: ['es_MX', 'es'],
  HN: ['es_MX', 'es'],
  NI: ['es_MX', 'es'],
  SV: ['es_MX', 'es'],
  LI: ['de_CH', 'de'],
  MC: ['fr'],
  SM: ['it'],
  VA: ['it'],
  CY: ['el'],
  FO: ['da'],
  GL: ['da'],
  BI: ['fr'],
  MU: ['fr'],
  ST: ['pt_PT'],
  TL: ['pt_PT'],
  BY: ['ru'],
  KZ: ['ru'],
  BA: ['sr_RS_latin'],
  ME: ['sr_RS_latin'],
  XK: ['sr_RS_latin'],
  PK: ['ur'],
  FK: ['en_GB'],
  GI: ['en_GB'],
  VG: ['en_GB'],
  LC: ['en_GB'],
  MT: ['en_GB'],
  SC: ['en_GB'],
};

export interface ProfileLocale {
  readonly countryCode: string;
  /** Locale names, most specific first (then en and base). */
  readonly chain: readonly string[];
  readonly fallback: boolean;
}

function localeOf(countryCode: string): ProfileLocale {
  const own = covered[countryCode];
  if (own !== undefined)
    return Object.freeze({
      countryCode,
      chain: Object.freeze([...own, 'en', 'base']),
      fallback: false,
    });
  return Object.freeze({
    countryCode,
    chain: Object.freeze([...(fallbackLanguage[countryCode] ?? []), 'en', 'base']),
    fallback: true,
  });
}

/** One frozen locale per two-letter code (at most 26 * 26): every profile asks, and the chain is the faker cache key. */
const locales = new Map<string, ProfileLocale>();
const twoLetters = /^[A-Z]{2}$/;

export function profileLocaleOf(countryCode: string): ProfileLocale {
  let locale = locales.get(countryCode);
  if (locale === undefined) {
    locale = localeOf(countryCode);
    if (twoLetters.test(countryCode)) locales.set(countryCode, locale);
  }
  return locale;
}

export function isCoveredCountry(countryCode: string): boolean {
  return covered[countryCode] !== undefined;
}

/** Covered IBAN countries (the US is covered for /us/routing/profile but has no IBAN). */
export const coveredCountryCodes: readonly string[] = Object.keys(covered);

export function localeDefinitions(chain: readonly string[]): LocaleDefinition[] {
  const locales = loadedFaker().allLocales;
  return chain.map((name) => locales[name as LocaleName]);
}
