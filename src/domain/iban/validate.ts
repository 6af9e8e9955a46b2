import { nationalRuleOf } from './national/index.js';
import type {
  NationalCheckAt,
  NationalCheckOutcome,
  NationalContext,
  NationalRule,
} from './national/types.js';
import {
  bbanKinds,
  bbanOffset,
  countryFormats,
  type CharKind,
  type CountryFormat,
  type Span,
} from './countries.js';
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

// Per-country position tables, built once: validation is then one pass of charCode checks.
// Kinds and characters are bit sets: a character fits a position when their AND is non-zero.
const bitDigit = 1;
const bitLetter = 2;
const kindBits: Record<CharKind, number> = { n: bitDigit, a: bitLetter, c: bitDigit | bitLetter };
const asciiSize = 128;
const alphabetSize = 26;
const codeUpperA = 65;
const codeUpperZ = 90;
const codeDigit0 = 48;
const codeDigit9 = 57;
const letterBase = 55; // 'A' reads as 10 in MOD 97-10
const modulus = 97;
/** Keeps the running remainder in int32 range (see mod97.ts). */
const reduceAbove = 9_999_999;
/** Check digits 00, 01 and 99 are never issued: 98 - (n mod 97) only yields 02..98. */
const checkDigitsMin = 2;
const checkDigitsMax = 98;

/** Per ASCII code: its kind bits, its MOD 97-10 value and the factor that makes room for it. */
const charBits = new Uint8Array(asciiSize);
const charValue = new Uint8Array(asciiSize);
const charFactor = new Uint8Array(asciiSize);
for (let code = codeDigit0; code <= codeDigit9; code++) {
  charBits[code] = bitDigit;
  charValue[code] = code - codeDigit0;
  charFactor[code] = 10;
}
for (let code = codeUpperA; code <= codeUpperZ; code++) {
  charBits[code] = bitLetter;
  charValue[code] = code - letterBase;
  charFactor[code] = 100; // letters read as two decimal digits
}

export interface CountryTable {
  readonly format: CountryFormat;
  readonly kinds: Uint8Array;
  /** The BBAN as runs of one kind: [end index in the IBAN, kind bits] pairs. */
  readonly runs: Int32Array;
  /** The two country letters read as four MOD 97-10 digits (e.g. DE -> 1314). */
  readonly countryDigits: number;
  readonly rule: NationalRule | undefined;
  /** The rule's check on the IBAN in place (no BBAN slice), or null for a country without a rule. */
  readonly nationalCheck: NationalCheckAt | null;
}

function buildTable(format: CountryFormat): CountryTable {
  const kinds = Uint8Array.from(bbanKinds(format), (kind) => kindBits[kind]);
  const first = format.code.charCodeAt(0) - letterBase;
  const second = format.code.charCodeAt(1) - letterBase;
  const rule = nationalRuleOf(format.code);
  return {
    format,
    kinds,
    runs: runsOf(kinds),
    countryDigits: first * 100 + second,
    rule,
    nationalCheck: inPlaceCheck(rule),
  };
}

function runsOf(kinds: Uint8Array): Int32Array {
  const runs: number[] = [];
  for (let index = 0; index < kinds.length; index++) {
    const kind = kinds[index]!;
    if (index + 1 === kinds.length || kinds[index + 1] !== kind)
      runs.push(bbanOffset + index + 1, kind);
  }
  return Int32Array.from(runs);
}

function inPlaceCheck(rule: NationalRule | undefined): NationalCheckAt | null {
  if (rule === undefined) return null;
  if (rule.checkAt !== undefined) return rule.checkAt;
  return (text, start, context) => rule.check(text.slice(start), context);
}

/** One table per country, in the order of countryFormats (a country's index there is its index here). */
export const tables: readonly CountryTable[] = countryFormats.map(buildTable);
/** Two upper-case letters -> index into `tables`, or -1. */
const tableIndexByLetters = new Int16Array(alphabetSize * alphabetSize).fill(-1);
tables.forEach((table, index) => {
  const first = table.format.code.charCodeAt(0) - codeUpperA;
  const second = table.format.code.charCodeAt(1) - codeUpperA;
  tableIndexByLetters[first * alphabetSize + second] = index;
});

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

/** The index in `tables` (and countryFormats) of the country whose letters open `text`, or -1. */
export function tableIndexOf(text: string): number {
  const first = text.charCodeAt(0) - codeUpperA;
  const second = text.charCodeAt(1) - codeUpperA;
  if (first < 0 || first >= alphabetSize || second < 0 || second >= alphabetSize) return -1;
  return tableIndexByLetters[first * alphabetSize + second]!;
}

function tableOf(normalized: string): CountryTable | undefined {
  const first = normalized.charCodeAt(0) - codeUpperA;
  const second = normalized.charCodeAt(1) - codeUpperA;
  if (first < 0 || first >= alphabetSize || second < 0 || second >= alphabetSize) return undefined;
  const index = tableIndexByLetters[first * alphabetSize + second]!;
  return index < 0 ? undefined : tables[index];
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

/** r * 100 + 99 stays below 2^31 while r <= this: int32 arithmetic, one % per three digit pairs. */
const reducePairsAbove = 21_474_835;

/**
 * The BBAN's MOD 97-10 remainder (not reduced below 97), or -1 when a character does not fit its
 * position. Digit runs go two digits per step; letters read as two decimal digits (10..35).
 */
export function bbanRemainder(input: string, runs: Int32Array): number {
  let remainder = 0;
  let index = bbanOffset;
  for (let run = 0; run < runs.length; run += 2) {
    const end = runs[run]!;
    const kind = runs[run + 1]!;
    if (kind === bitDigit) {
      for (; index + 1 < end; index += 2) {
        const high = input.charCodeAt(index) - codeDigit0;
        const low = input.charCodeAt(index + 1) - codeDigit0;
        if (high < 0 || high > 9 || low < 0 || low > 9) return -1;
        remainder = remainder * 100 + high * 10 + low;
        if (remainder > reducePairsAbove) remainder %= modulus;
      }
      if (index < end) {
        const digit = input.charCodeAt(index) - codeDigit0;
        if (digit < 0 || digit > 9) return -1;
        remainder = remainder * 10 + digit;
        if (remainder > reducePairsAbove) remainder %= modulus;
        index++;
      }
    } else if (kind === bitLetter) {
      for (; index < end; index++) {
        const letter = input.charCodeAt(index) - codeUpperA;
        if (letter < 0 || letter >= alphabetSize) return -1;
        remainder = remainder * 100 + letter + 10;
        if (remainder > reducePairsAbove) remainder %= modulus;
      }
    } else {
      // Digits and letters mix at random here: table lookups instead of an unpredictable branch.
      for (; index < end; index++) {
        const code = input.charCodeAt(index);
        if (code >= asciiSize || charBits[code] === 0) return -1;
        remainder = remainder * charFactor[code]! + charValue[code]!;
        if (remainder > reducePairsAbove) remainder %= modulus;
      }
    }
  }
  return remainder;
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
  // Rearranged IBAN = BBAN, country letters (4 digits), check digits (2 digits).
  const bbanMod97 = bbanRemainder % modulus;
  const remainder = (bbanMod97 * 1_000_000 + table.countryDigits * 100 + checkDigits) % modulus;
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
