import { Type, type Static } from '@sinclair/typebox';
import { countryFormatOf, countryFormats } from '../../domain/iban/countries.js';
import { normalizeIbanInput, resolveCountry, validateIban } from '../../domain/iban/index.js';
import { noRegistryContext } from '../../domain/iban/national/types.js';
import { coveredCountryCodes } from '../../domain/profiles/countries.js';
import { fictionalRangeCountries } from '../../domain/profiles/phones.js';
import type { Gender } from '../../domain/profiles/engine.js';
import { rngPick, type Rng } from '../../domain/rng.js';
import { AppError } from '../../errors.js';
import { limits, profileLimits as bounds } from '../../limits.js';
import {
  bankMatchesFilter,
  type BankDirectory,
  type BankFilter,
  type BankInfo,
} from '../../registry/bank-directory.js';
import { strictObject } from '../framework/schemas.js';

const age = (fallback: number, description: string) =>
  Type.Integer({
    minimum: bounds.ageFloor,
    maximum: bounds.ageCeiling,
    default: fallback,
    description,
  });
const bankText = (description: string) =>
  Type.String({ minLength: 1, maxLength: bounds.bankContextCharsMax, description });

export const profileInput = strictObject({
  country: Type.String({
    minLength: 1,
    maxLength: limits.countryInputCharsMax,
    default: 'Random',
    description:
      'IBAN-registry country (English name or ISO alpha-2), or Random (default): a country with its own faker locale',
  }),
  iban: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: limits.ibanInputCharsMax,
      description: 'Bank context: a valid IBAN; the profile takes its country and bank',
    }),
  ),
  additional_info: Type.Optional(
    Type.Record(Type.String({ maxLength: bounds.additionalInfoKeyCharsMax }), Type.Unknown(), {
      description: `Free-form hints (at most ${bounds.additionalInfoBytesMax} bytes of JSON, nesting depth ${bounds.additionalInfoDepthMax}); passed to an external provider, ignored by the built-in one`,
    }),
  ),
  gender: Type.Union([Type.Literal('random'), Type.Literal('female'), Type.Literal('male')], {
    default: 'random',
  }),
  age_min: age(bounds.ageMinDefault, 'Youngest age, 18-120'),
  age_max: age(bounds.ageMaxDefault, 'Oldest age, 18-120, not below age_min'),
  swift_code: Type.Optional(bankText('Bank context: BIC8 or BIC11 of a registry bank')),
  bank_name: Type.Optional(
    bankText(
      'Bank context: registry bank name (contains, case and accents ignored); needs a country',
    ),
  ),
  bank_city: Type.Optional(bankText('Bank context: registry bank city; needs a country')),
  seed: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: bounds.seedCharsMax,
      description: 'Makes the profile reproducible',
    }),
  ),
  phone_range: Type.Optional(
    Type.Union([Type.Literal('valid'), Type.Literal('fictional')], {
      description:
        'valid (default): a number libphonenumber (max metadata) accepts for the country, phone_range synthetic_format_valid; fictional: a number of a range the regulator reserves for fiction (GB: Ofcom drama numbers), phone_range fictional_reserved; 400 for a country without one',
    }),
  ),
});
export type ProfileInput = Static<typeof profileInput>;

const bicPattern = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** The shape rule: any bank context field (iban, swift_code, bank_name, bank_city) selects the bank-context shape. */
export function hasBankContext(input: ProfileInput): boolean {
  return (
    input.iban !== undefined ||
    input.swift_code !== undefined ||
    input.bank_name !== undefined ||
    input.bank_city !== undefined
  );
}

function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((deepest, child) => Math.max(deepest, depthOf(child)), 0);
}

function isRandom(country: string): boolean {
  return country.trim().toLowerCase() === 'random';
}

/** Every check that needs no registry: runs before any credit is reserved. */
export function gateProfileInput(input: ProfileInput): void {
  if (input.age_min > input.age_max)
    throw new AppError(
      'invalid_argument',
      `age_min (${input.age_min}) is above age_max (${input.age_max})`,
    );
  if (!isRandom(input.country) && resolveCountry(input.country) === undefined) {
    throw new AppError(
      'invalid_country',
      `Unknown or non-IBAN country ${JSON.stringify(input.country)}: use an English name, an ISO alpha-2 code of the SWIFT IBAN registry, or Random`,
    );
  }
  if (input.additional_info !== undefined) {
    const bytes = Buffer.byteLength(JSON.stringify(input.additional_info));
    if (bytes > bounds.additionalInfoBytesMax)
      throw new AppError(
        'invalid_argument',
        `additional_info is ${bytes} bytes of JSON; at most ${bounds.additionalInfoBytesMax}`,
      );
    const depth = depthOf(input.additional_info);
    if (depth > bounds.additionalInfoDepthMax)
      throw new AppError(
        'invalid_argument',
        `additional_info nests ${depth} levels deep; at most ${bounds.additionalInfoDepthMax}`,
      );
  }
  if (input.swift_code !== undefined && !bicPattern.test(input.swift_code.toUpperCase())) {
    throw new AppError(
      'invalid_argument',
      `swift_code ${JSON.stringify(input.swift_code)} is not a BIC (4 letters bank, 2 letters country, 2 location, optional 3 branch)`,
    );
  }
  if (input.iban !== undefined) {
    // Without the registry: a national check that needs the bank's method is not_checked here, rechecked in the run.
    const verdict = validateIban(input.iban, noRegistryContext);
    if (verdict.error !== null) {
      throw new AppError('invalid_argument', `iban is not a valid IBAN: ${verdict.error}`, {
        reason: verdict.error,
      });
    }
    if (!isRandom(input.country) && verdict.countryCode !== resolveCountry(input.country)?.code) {
      throw new AppError(
        'invalid_argument',
        `iban is a ${verdict.countryCode ?? '?'} IBAN, not one of ${input.country}`,
      );
    }
  }
  gateFictionalRange(input);
  if (
    (input.bank_name !== undefined || input.bank_city !== undefined) &&
    input.iban === undefined &&
    input.swift_code === undefined &&
    isRandom(input.country)
  ) {
    throw new AppError(
      'invalid_argument',
      'bank_name and bank_city need a country (or an iban or swift_code that names one)',
    );
  }
}

/** The profile's country when the request names one (country, iban or swift_code); undefined for Random. */
function namedCountry(input: ProfileInput): string | undefined {
  if (!isRandom(input.country)) return resolveCountry(input.country)?.code;
  if (input.iban !== undefined)
    return validateIban(input.iban, noRegistryContext).countryCode ?? undefined;
  return input.swift_code?.toUpperCase().slice(4, 6);
}

/** A fictional range exists for few countries: asking for one elsewhere is a 400, not a silent real-looking number. */
function gateFictionalRange(input: ProfileInput): void {
  if (input.phone_range !== 'fictional') return;
  const country = namedCountry(input);
  if (country === undefined || !fictionalRangeCountries.includes(country))
    throw new AppError(
      'invalid_argument',
      `phone_range "fictional" needs a country with a range reserved for fiction (${fictionalRangeCountries.join(', ')}); ${country === undefined ? 'the request names no country' : `${country} has none`}`,
    );
}

export interface ResolvedRequest {
  readonly countryCode: string;
  readonly gender: Gender | undefined;
  /** The IBAN the request sent (normalised), with the registry's bank for it (undefined: unknown bank). */
  readonly givenIban?: { readonly iban: string; readonly bank: BankInfo | undefined };
  /** The registry bank the bank context names. */
  readonly bank?: BankInfo;
}

function filterOf(input: ProfileInput): BankFilter | undefined {
  const filter: BankFilter = {
    ...(input.swift_code === undefined ? {} : { bic: input.swift_code.toUpperCase() }),
    ...(input.bank_name === undefined ? {} : { name: input.bank_name }),
    ...(input.bank_city === undefined ? {} : { city: input.bank_city }),
  };
  return Object.keys(filter).length === 0 ? undefined : filter;
}

function noMatch(countryCode: string, filter: BankFilter | undefined, detail: string): AppError {
  return new AppError(
    'target_no_match',
    `No registry bank of ${countryCode} matches ${JSON.stringify(filter ?? {})}${detail}; nothing was substituted`,
    { match_status: 'no_match' },
  );
}

/** Country and bank from the request and the registry; an unmatched bank context is an explicit no-match. */
export function resolveProfileRequest(
  input: ProfileInput,
  rng: Rng,
  directory: BankDirectory,
): ResolvedRequest {
  const gender = input.gender === 'random' ? undefined : input.gender;
  const filter = filterOf(input);
  if (input.iban !== undefined) {
    const iban = normalizeIbanInput(input.iban);
    const verdict = validateIban(iban, directory);
    if (!verdict.valid || verdict.countryCode === null)
      throw new AppError(
        'invalid_argument',
        `iban is not a valid IBAN: ${verdict.error ?? 'invalid'}`,
        { reason: verdict.error ?? 'invalid' },
      );
    const bank =
      verdict.bankCode === null
        ? undefined
        : directory.bankOf(verdict.countryCode, verdict.bankCode);
    if (filter !== undefined && (bank === undefined || !bankMatchesFilter(bank, filter))) {
      throw noMatch(
        verdict.countryCode,
        filter,
        ` for the IBAN's bank code ${verdict.bankCode ?? '?'}`,
      );
    }
    return { countryCode: verdict.countryCode, gender, givenIban: { iban, bank } };
  }
  const countryCode = countryOf(input, rng);
  if (filter === undefined) return { countryCode, gender };
  const banks = directory
    .banksMatching(countryCode, filter, 1_000)
    .filter((bank) => bank.bankCode.length === countryFormatOf(countryCode)?.bankCode.length);
  if (banks.length === 0) throw noMatch(countryCode, filter, '');
  return { countryCode, gender, bank: rngPick(rng, banks) };
}

function countryOf(input: ProfileInput, rng: Rng): string {
  if (!isRandom(input.country))
    return (resolveCountry(input.country) ?? countryFormats[0])?.code as string;
  if (input.swift_code !== undefined) {
    const code = input.swift_code.toUpperCase().slice(4, 6);
    if (countryFormatOf(code) === undefined)
      throw new AppError('invalid_argument', `swift_code is a BIC of ${code}, which has no IBAN`);
    return code;
  }
  return rngPick(rng, randomCountries);
}

/** Random: a covered IBAN country (its own locale), never the US, which has no IBAN. */
const randomCountries = coveredCountryCodes.filter((code) => countryFormatOf(code) !== undefined);
