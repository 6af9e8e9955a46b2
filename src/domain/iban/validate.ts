import type { NationalCheckOutcome, NationalContext } from './national/types.js';
import {
  bbanKinds,
  bbanOffset,
  type CharKind,
  type CountryFormat,
  type Span,
} from './countries.js';
import {
  bbanRemainder,
  charBits,
  charFactor,
  charValue,
  checkDigitsMax,
  checkDigitsMin,
  codeDigit0,
  codeUpperA,
  ibanRemainder,
  modulus,
  tableOf,
  type CountryTable,
} from './country-tables.js';
import { ibanCheckDigits } from './mod97.js';
import {
  describeCharacter,
  normalizeIbanInput,
  paperPrefixLength,
  scanClean,
  scanIbanInput,
} from './normalize.js';

/** Stable machine codes, most specific first (clarifications §4). */
export type ValidationReason =
  | 'invalid_characters'
  | 'unsupported_country'
  | 'invalid_length'
  | 'invalid_structure'
  | 'invalid_checksum'
  | 'invalid_national_checksum';

export interface IbanVerdict {
  readonly valid: boolean;
  readonly error: ValidationReason | null;
  readonly message: string | null;
  /** The input without spaces, ASCII letters upper-cased (other characters kept). */
  readonly normalized: string;
  readonly countryCode: string | null;
  /** Set once the BBAN matches the country's structure (also on checksum failures). */
  readonly bankCode: string | null;
  readonly branchCode: string | null;
  /** not_applicable on rows that fail before the national step. */
  readonly nationalCheck: NationalCheckOutcome;
}

/** Keeps the running remainder in int32 range (see mod97.ts). */
const reduceAbove = 9_999_999;

/**
 * The verdict object. Bank and branch codes are sliced from `normalized` on first read, not on
 * every row: the gRPC stream and most bulk callers never read them, and a slice is an allocation
 * (measured: two eager slices were ~7 % of a validation). Reading them gives the same values the
 * eager object had; `toJSON` keeps JSON output complete (prototype getters are not own properties,
 * so spread and structuredClone would drop them: read the fields instead).
 */
class Verdict implements IbanVerdict {
  readonly valid: boolean;
  readonly error: ValidationReason | null;
  readonly message: string | null;
  readonly normalized: string;
  readonly countryCode: string | null;
  readonly nationalCheck: NationalCheckOutcome;
  /** Where the bank and branch codes sit; null until the BBAN matched its structure. */
  readonly #format: CountryFormat | null;
  #bankCode: string | null | undefined = undefined;
  #branchCode: string | null | undefined = undefined;

  constructor(
    error: ValidationReason | null,
    message: string | null,
    normalized: string,
    countryCode: string | null,
    format: CountryFormat | null,
    outcome: NationalCheckOutcome,
  ) {
    this.valid = error === null;
    this.error = error;
    this.message = message;
    this.normalized = normalized;
    this.countryCode = countryCode;
    this.nationalCheck = outcome;
    this.#format = format;
  }

  get bankCode(): string | null {
    if (this.#bankCode === undefined)
      this.#bankCode = spanOf(this.normalized, this.#format?.bankCode ?? null);
    return this.#bankCode;
  }

  get branchCode(): string | null {
    if (this.#branchCode === undefined)
      this.#branchCode = spanOf(this.normalized, this.#format?.branchCode ?? null);
    return this.#branchCode;
  }

  toJSON(): IbanVerdict {
    const { valid, error, message, normalized, countryCode, bankCode, branchCode, nationalCheck } =
      this;
    return { valid, error, message, normalized, countryCode, bankCode, branchCode, nationalCheck };
  }
}

function spanOf(normalized: string, span: Span | null): string | null {
  if (span === null) return null;
  const start = bbanOffset + span.offset;
  return normalized.slice(start, start + span.length);
}

function failure(
  error: ValidationReason,
  message: string,
  normalized: string,
  countryCode: string | null,
): IbanVerdict {
  return new Verdict(error, message, normalized, countryCode, null, 'not_applicable');
}

/**
 * Validates one IBAN. Reasons are checked most specific first: invalid_characters,
 * unsupported_country, invalid_length, invalid_structure, invalid_checksum (MOD 97-10, or check
 * digits 00/01/99), invalid_national_checksum. A national 'not_checked' is not invalid.
 */
export function validateIban(input: string, context: NationalContext): IbanVerdict {
  return validateElectronic(input, context) ?? validateAnyInput(input, context);
}

/**
 * The hot path: input already in electronic form, known country, right length, every character
 * fitting its position. One loop does the character, kind and MOD 97-10 work; anything else
 * returns undefined and takes the path that names the precise reason.
 */
function validateElectronic(input: string, context: NationalContext): IbanVerdict | undefined {
  const length = input.length;
  if (length < bbanOffset) return undefined;
  const table = tableOf(input);
  if (table === undefined || length !== table.format.ibanLength) return undefined;
  const tens = input.charCodeAt(2) - codeDigit0;
  const units = input.charCodeAt(3) - codeDigit0;
  if (tens < 0 || tens > 9 || units < 0 || units > 9) return undefined;
  const remainder = bbanRemainder(input, table.runs);
  if (remainder < 0) return undefined;
  return checkedVerdict(table, input, remainder, tens * 10 + units, context);
}

/** Every other input: normalise, then find the first reason in the documented order. */
function validateAnyInput(input: string, context: NationalContext): IbanVerdict {
  const prefix = paperPrefixLength(input);
  const text = prefix === 0 ? input : input.slice(prefix);
  const scan = scanIbanInput(text);
  const normalized = scan === scanClean ? text : normalizeIbanInput(text);
  if (scan >= 0) return invalidCharacters(input, prefix + scan, normalized);
  const length = normalized.length;
  if (length < 2) return failure('invalid_length', tooShortMessage(length), normalized, null);
  const table = tableOf(normalized);
  if (table === undefined) return unsupportedCountry(normalized);
  const format = table.format;
  if (length !== format.ibanLength) {
    const message = `${format.code} IBANs have ${format.ibanLength} characters, got ${length}`;
    return failure('invalid_length', message, normalized, format.code);
  }
  const tens = normalized.charCodeAt(2) - codeDigit0;
  const units = normalized.charCodeAt(3) - codeDigit0;
  if (tens < 0 || tens > 9 || units < 0 || units > 9)
    return checkDigitsNotNumeric(format, normalized);
  const kinds = table.kinds;
  let remainder = 0;
  for (let index = bbanOffset; index < length; index++) {
    const code = normalized.charCodeAt(index); // the scan admitted only 0-9 and A-Z
    if ((charBits[code]! & kinds[index - bbanOffset]!) === 0)
      return structureFailure(format, normalized, index);
    remainder = remainder * charFactor[code]! + charValue[code]!;
    if (remainder > reduceAbove) remainder %= modulus;
  }
  return checkedVerdict(table, normalized, remainder, tens * 10 + units, context);
}

/** The BBAN matched its structure: bank fields, then checksum, then the national rule. */
function checkedVerdict(
  table: CountryTable,
  normalized: string,
  bbanRemainder: number,
  checkDigits: number,
  context: NationalContext,
): IbanVerdict {
  const format = table.format;
  const bbanMod97 = bbanRemainder % modulus;
  const remainder = ibanRemainder(table, bbanMod97, checkDigits);
  if (remainder !== 1 || checkDigits < checkDigitsMin || checkDigits > checkDigitsMax) {
    const message = checksumMessage(format, normalized, checkDigits, remainder);
    return new Verdict(
      'invalid_checksum',
      message,
      normalized,
      format.code,
      format,
      'not_applicable',
    );
  }
  const nationalCheck = table.nationalCheck;
  if (nationalCheck === null) {
    return new Verdict(null, null, normalized, format.code, format, 'not_applicable');
  }
  const outcome = nationalCheck(normalized, bbanOffset, context, bbanMod97);
  if (outcome !== 'failed')
    return new Verdict(null, null, normalized, format.code, format, outcome);
  const message = `${format.code} national check digits do not match (${table.rule?.rule ?? 'national rule'})`;
  return new Verdict(
    'invalid_national_checksum',
    message,
    normalized,
    format.code,
    format,
    outcome,
  );
}

// Error paths: messages are built only here, never on the valid path.

function invalidCharacters(input: string, index: number, normalized: string): IbanVerdict {
  const character = String.fromCodePoint(input.codePointAt(index) ?? 0);
  const message =
    `character ${index + 1} (${describeCharacter(character)}) is not allowed in an IBAN: ` +
    'only letters A-Z, digits 0-9 and spaces (U+0020) are accepted';
  return failure('invalid_characters', message, normalized, null);
}

function tooShortMessage(length: number): string {
  return length === 0 ? 'the IBAN is empty' : 'the IBAN is too short to hold a country code';
}

function unsupportedCountry(normalized: string): IbanVerdict {
  const prefix = normalized.slice(0, 2);
  const letters = prefix.charCodeAt(0) >= codeUpperA && prefix.charCodeAt(1) >= codeUpperA;
  const message = letters
    ? `"${prefix}" is not an IBAN country code of the SWIFT IBAN Registry`
    : `an IBAN starts with a two-letter country code, got "${prefix}"`;
  return failure('unsupported_country', message, normalized, null);
}

function checkDigitsNotNumeric(format: CountryFormat, normalized: string): IbanVerdict {
  const message = `characters 3-4 must be two check digits, got "${normalized.slice(2, 4)}"`;
  return failure('invalid_structure', message, normalized, format.code);
}

const kindNames: Record<CharKind, string> = {
  n: 'a digit',
  a: 'an upper-case letter',
  c: 'a letter or digit',
};

function structureFailure(format: CountryFormat, normalized: string, index: number): IbanVerdict {
  const kind = bbanKinds(format)[index - bbanOffset] ?? 'c';
  const message =
    `${format.code} BBAN format is ${format.bbanSpec}: character ${index + 1} must be ` +
    `${kindNames[kind]}, got '${normalized.charAt(index)}'`;
  return failure('invalid_structure', message, normalized, format.code);
}

function checksumMessage(
  format: CountryFormat,
  normalized: string,
  checkDigits: number,
  remainder: number,
): string {
  const expected = ibanCheckDigits(format.code, normalized.slice(bbanOffset));
  const given = normalized.slice(2, 4);
  if (checkDigits < checkDigitsMin || checkDigits > checkDigitsMax) {
    return (
      `check digits ${given} are never issued (valid check digits run from 02 to 98); ` +
      `this BBAN needs ${expected}`
    );
  }
  return (
    `IBAN checksum (ISO 7064 MOD 97-10) fails: remainder ${remainder}, ` +
    `check digits ${given}, expected ${expected}`
  );
}
