import { assert, unreachable } from '../../assert.js';
import { requestKeyOf, rngBelow, rowRng, type RequestKey, type Rng } from '../rng.js';
import { nationalCheck, nationalRuleOf } from './national/index.js';
import type { NationalContext } from './national/types.js';
import {
  bbanKinds,
  bbanOffset,
  countryFormatOf,
  countryFormats,
  ibanLengthMax,
  type CountryFormat,
} from './countries.js';
import { generateIban, type GeneratedIban } from './generate.js';
import { ibanCheckDigits } from './mod97.js';
import { formatIbanPrint } from './normalize.js';
import { validateIban, type ValidationReason } from './validate.js';
import { limits } from '../../limits.js';

export type TestCaseCategory =
  | 'valid'
  | 'checksum'
  | 'length'
  | 'malformed'
  | 'country_mismatch'
  | 'national_checksum'
  | 'check_digit_alias'
  | 'normalisation';

export interface TestCase {
  readonly case_id: string;
  readonly category: TestCaseCategory;
  readonly input: string;
  readonly country_code: string;
  readonly expected_valid: boolean;
  readonly expected_error: ValidationReason | null;
  readonly description: string;
  readonly tags: readonly string[];
}

/** Categories cycle in this order, so small quantities still cover as many as fit. */
const categoryOrder: readonly TestCaseCategory[] = [
  'valid',
  'checksum',
  'length',
  'malformed',
  'country_mismatch',
  'national_checksum',
  'check_digit_alias',
  'normalisation',
];

/** A BBAN admits alias check digits when its real ones are 02, 97 or 98: 3 in 97 draws. */
const aliasSearchDraws = 400; // (94/97)^400 < 4e-6: a miss falls back to a plain 00/01/99 case
const aliasStreamBase = 1;
/** Redraws for a national case whose draw the rule answered 'not_checked' (rare, rule-specific). */
const nationalRedraws = 32;
const nationalStreamBase = 1_000;
const digits = '0123456789';
const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

interface Row {
  readonly format: CountryFormat;
  readonly context: NationalContext;
  readonly key: RequestKey;
  readonly index: number;
  /** How many times this category came round before: picks the variant. */
  readonly round: number;
  readonly rng: Rng;
  readonly nationalBank: NationalBank | undefined;
}
interface CaseBody {
  readonly input: string;
  readonly error: ValidationReason | null;
  readonly description: string;
  readonly tags: readonly string[];
}
/** The bank code a national case uses (undefined: any drawn bank code passes the rule). */
interface NationalBank {
  readonly bankCode: string | undefined;
}

/**
 * An edge-case catalogue for one country, deterministic per request key. Every case states the
 * verdict the validator gives (checked here by a pair assertion and in the tests).
 */
export function buildTestCases(
  format: CountryFormat,
  key: RequestKey,
  quantity: number,
  context: NationalContext,
): TestCase[] {
  assert(
    Number.isInteger(quantity) && quantity >= 1 && quantity <= limits.testCasesQuantityMax,
    'quantity within the spec bound',
  );
  const nationalBank = findNationalBank(format, context);
  const categories = categoryOrder.filter(
    (c) => c !== 'national_checksum' || nationalBank !== undefined,
  );
  const cases: TestCase[] = [];
  for (let index = 0; index < quantity; index++) {
    const category = categories[index % categories.length] as TestCaseCategory;
    const round = Math.floor(index / categories.length);
    const row: Row = { format, context, key, index, round, rng: rowRng(key, index), nationalBank };
    const body = buildBody(category, row);
    const verdict = validateIban(body.input, context);
    const promise = `test case ${format.code}/${category} expects ${body.error}, got ${verdict.error}`;
    assert(verdict.error === body.error, promise);
    cases.push({
      case_id: `${format.code}-${String(index + 1).padStart(2, '0')}-${category}`,
      category,
      input: body.input,
      country_code: format.code,
      expected_valid: body.error === null,
      expected_error: body.error,
      description: body.description,
      tags: body.tags,
    });
  }
  return cases;
}

function buildBody(category: TestCaseCategory, row: Row): CaseBody {
  switch (category) {
    case 'valid':
      return validCase(row);
    case 'checksum':
      return checksumCase(row);
    case 'length':
      return lengthCase(row);
    case 'malformed':
      return malformedCase(row);
    case 'country_mismatch':
      return countryMismatchCase(row);
    case 'national_checksum':
      return nationalChecksumCase(row);
    case 'check_digit_alias':
      return checkDigitAliasCase(row);
    case 'normalisation':
      return normalisationCase(row);
    default:
      return unreachable('test case category', category);
  }
}

function caseBody(
  input: string,
  error: ValidationReason | null,
  description: string,
  ...tags: string[]
): CaseBody {
  return { input, error, description, tags };
}

function draw(row: Row): GeneratedIban {
  return generateIban(row.format, row.rng, {}, row.context);
}

function replaceAt(text: string, index: number, char: string): string {
  return text.slice(0, index) + char + text.slice(index + 1);
}

/** The same character class as `char` (digit or letter): a swap inside it keeps the structure. */
function classAlphabet(char: string): string {
  return char >= '0' && char <= '9' ? digits : letters;
}

function otherChar(rng: Rng, alphabet: string, current: string): string {
  const start = rngBelow(rng, alphabet.length - 1);
  const char = alphabet.charAt(start);
  return char === current ? alphabet.charAt(alphabet.length - 1) : char;
}

function withCheckDigits(format: CountryFormat, bban: string): string {
  return format.code + ibanCheckDigits(format.code, bban) + bban;
}

function validCase(row: Row): CaseBody {
  const generated = draw(row);
  const description = `Valid ${row.format.code} IBAN in electronic format (synthetic account number)`;
  const sepa = row.format.sepa ? 'sepa' : 'non_sepa';
  return caseBody(
    generated.iban,
    null,
    description,
    'electronic',
    sepa,
    `national_${generated.nationalCheck}`,
  );
}

function checksumCase(row: Row): CaseBody {
  const { iban } = draw(row);
  const variant = row.round % 3;
  if (variant === 1) {
    const swapped = adjacentTransposition(iban, row.rng);
    if (swapped !== undefined) {
      return caseBody(
        swapped,
        'invalid_checksum',
        'Two adjacent BBAN characters swapped',
        'adjacent_transposition',
      );
    }
  }
  if (variant === 2) {
    const current = Number(iban.slice(2, 4));
    const changed = 2 + ((current - 2 + 1 + rngBelow(row.rng, 96)) % 97); // another value in 02..98
    const input = iban.slice(0, 2) + String(changed).padStart(2, '0') + iban.slice(4);
    return caseBody(
      input,
      'invalid_checksum',
      `Check digits changed from ${iban.slice(2, 4)}`,
      'check_digits_changed',
    );
  }
  // MOD 97-10 detects every single substitution inside a character class: the change is
  // d * 10^k or d * 100^k with 0 < |d| < 97, never a multiple of the prime 97.
  const index = bbanOffset + rngBelow(row.rng, iban.length - bbanOffset);
  const current = iban.charAt(index);
  const input = replaceAt(iban, index, otherChar(row.rng, classAlphabet(current), current));
  const description = `One BBAN character changed (position ${index + 1})`;
  return caseBody(input, 'invalid_checksum', description, 'single_substitution');
}

/** Swaps two different adjacent BBAN characters of one class (always detected by MOD 97-10). */
function adjacentTransposition(iban: string, rng: Rng): string | undefined {
  const candidates: number[] = [];
  for (let index = bbanOffset; index + 1 < iban.length; index++) {
    const left = iban.charAt(index);
    const right = iban.charAt(index + 1);
    if (left !== right && classAlphabet(left) === classAlphabet(right)) candidates.push(index);
  }
  if (candidates.length === 0) return undefined;
  const index = candidates[rngBelow(rng, candidates.length)] as number;
  return iban.slice(0, index) + iban.charAt(index + 1) + iban.charAt(index) + iban.slice(index + 2);
}

function lengthCase(row: Row): CaseBody {
  const { iban } = draw(row);
  const variant = row.round % 3;
  if (variant === 0) {
    return caseBody(iban.slice(0, -1), 'invalid_length', 'One character short', 'too_short');
  }
  if (variant === 1) {
    const input = iban + digits.charAt(rngBelow(row.rng, digits.length));
    return caseBody(input, 'invalid_length', 'One character too long', 'too_long');
  }
  let input = iban;
  while (input.length <= ibanLengthMax) input += digits.charAt(rngBelow(row.rng, digits.length));
  return caseBody(
    input,
    'invalid_length',
    'Longer than the 34 characters any IBAN may have',
    'over_34',
  );
}

const foreignCharacters: readonly {
  readonly char: string;
  readonly tag: string;
  readonly label: string;
}[] = [
  { char: '-', tag: 'punctuation', label: 'a hyphen' },
  { char: '.', tag: 'punctuation', label: 'a dot' },
  { char: 'Ä', tag: 'non_ascii', label: 'the non-ASCII letter Ä' },
  { char: '\u0410', tag: 'lookalike', label: 'the Cyrillic look-alike А (U+0410)' },
];

function malformedCase(row: Row): CaseBody {
  const { iban } = draw(row);
  const variant = row.round % 5;
  if (variant === 0) {
    const violated = kindViolation(row, iban);
    if (violated !== undefined) return violated;
  }
  if (variant === 0 || variant === 1) {
    const checkLetters = otherChar(row.rng, letters, '') + otherChar(row.rng, letters, '');
    const input = iban.slice(0, 2) + checkLetters + iban.slice(4);
    return caseBody(
      input,
      'invalid_structure',
      'Check digits are letters, not digits',
      'non_numeric_check_digits',
    );
  }
  if (variant === 2) {
    const foreign = foreignCharacters[rngBelow(row.rng, foreignCharacters.length)]!;
    const index = bbanOffset + rngBelow(row.rng, iban.length - bbanOffset);
    const input = replaceAt(iban, index, foreign.char);
    return caseBody(
      input,
      'invalid_characters',
      `Position ${index + 1} holds ${foreign.label}`,
      foreign.tag,
    );
  }
  const prefix = variant === 3 ? 'XX' : 'US';
  assert(countryFormatOf(prefix) === undefined, `${prefix} is not an IBAN country`);
  const description = variant === 3 ? 'Unknown country code XX' : 'US is a country without IBANs';
  const tag = variant === 3 ? 'unknown_country' : 'non_iban_country';
  return caseBody(prefix + iban.slice(2), 'unsupported_country', description, tag);
}

/** A letter where the format wants a digit, or a digit where it wants a letter. */
function kindViolation(row: Row, iban: string): CaseBody | undefined {
  const kinds = bbanKinds(row.format);
  const candidates = kinds.flatMap((kind, index) => (kind === 'c' ? [] : [index]));
  if (candidates.length === 0) return undefined;
  const position = candidates[rngBelow(row.rng, candidates.length)] as number;
  const wantsDigit = kinds[position] === 'n';
  const char = otherChar(row.rng, wantsDigit ? letters : digits, '');
  const input = replaceAt(iban, bbanOffset + position, char);
  const wanted = wantsDigit ? 'digit' : 'letter';
  const description = `${row.format.bbanSpec}: position ${bbanOffset + position + 1} holds '${char}' where a ${wanted} belongs`;
  return caseBody(input, 'invalid_structure', description, 'kind_violation');
}

/** The reason the validator gives for `bban` under `target`'s prefix (null: it would be valid). */
function reasonUnder(
  target: CountryFormat,
  bban: string,
  context: NationalContext,
): ValidationReason | null {
  if (bban.length !== target.bbanLength) return 'invalid_length';
  const kinds = bbanKinds(target);
  for (let index = 0; index < bban.length; index++) {
    const isDigit = bban.charAt(index) >= '0' && bban.charAt(index) <= '9';
    if ((kinds[index] === 'n' && !isDigit) || (kinds[index] === 'a' && isDigit))
      return 'invalid_structure';
  }
  return nationalCheck(target.code, bban, context) === 'failed'
    ? 'invalid_national_checksum'
    : null;
}

function countryMismatchCase(row: Row): CaseBody {
  const { bban } = draw(row);
  const others = countryFormats.filter((format) => format.code !== row.format.code);
  const sameLength = others.filter((format) => format.bbanLength === row.format.bbanLength);
  // Even rounds prefer a prefix of the same length: the case then gets past the length check.
  const pool = row.round % 2 === 0 && sameLength.length > 0 ? sameLength : others;
  const start = rngBelow(row.rng, pool.length);
  for (let step = 0; step < pool.length; step++) {
    const target = pool[(start + step) % pool.length] as CountryFormat;
    const error = reasonUnder(target, bban, row.context);
    if (error === null) continue; // the BBAN happens to be valid there too: not a mismatch case
    const description = `A ${row.format.code} BBAN under the ${target.code} prefix with recomputed check digits`;
    return caseBody(withCheckDigits(target, bban), error, description, `prefix_${target.code}`);
  }
  const fallback = others.find(
    (format) => format.bbanLength !== row.format.bbanLength,
  ) as CountryFormat;
  const description = `A ${row.format.code} BBAN under the ${fallback.code} prefix with recomputed check digits`;
  return caseBody(
    withCheckDigits(fallback, bban),
    'invalid_length',
    description,
    `prefix_${fallback.code}`,
  );
}

/**
 * Whether a valid-then-broken national case can be built, and with which bank: any drawn bank
 * for context-free rules; for DE a bank whose check method the context knows (the registry
 * example's bank code), else the category is skipped.
 */
function findNationalBank(
  format: CountryFormat,
  context: NationalContext,
): NationalBank | undefined {
  if (nationalRuleOf(format.code) === undefined) return undefined;
  const bankStart = bbanOffset + format.bankCode.offset;
  const exampleBank = format.example.slice(bankStart, bankStart + format.bankCode.length);
  const probeKey = requestKeyOf('test-cases-national-probe', format.code);
  for (const bankCode of [undefined, exampleBank]) {
    const generated = generateIban(
      format,
      rowRng(probeKey, 0),
      bankCode === undefined ? {} : { bankCode },
      context,
    );
    if (generated.nationalCheck !== 'passed') continue;
    if (breakNational(format, generated.bban, rowRng(probeKey, 1), context) !== undefined)
      return { bankCode };
  }
  return undefined;
}

/** Changes one character (same class) so the national rule fails; check-digit positions first. */
function breakNational(
  format: CountryFormat,
  bban: string,
  rng: Rng,
  context: NationalContext,
): string | undefined {
  const positions: number[] = [];
  const push = (offset: number, length: number): void => {
    for (let index = offset + length - 1; index >= offset; index--) {
      if (!positions.includes(index)) positions.push(index);
    }
  };
  if (format.nationalCheckDigits !== null)
    push(format.nationalCheckDigits.offset, format.nationalCheckDigits.length);
  push(format.accountNumber.offset, format.accountNumber.length);
  push(0, format.bbanLength);
  for (const position of positions) {
    const alphabet = classAlphabet(bban.charAt(position));
    const start = rngBelow(rng, alphabet.length);
    for (let step = 0; step < alphabet.length; step++) {
      const char = alphabet.charAt((start + step) % alphabet.length);
      if (char === bban.charAt(position)) continue;
      const broken = replaceAt(bban, position, char);
      if (nationalCheck(format.code, broken, context) === 'failed') return broken;
    }
  }
  return undefined;
}

function nationalChecksumCase(row: Row): CaseBody {
  const bank = row.nationalBank;
  assert(bank !== undefined, 'national cases only for countries with a checkable rule');
  const options = bank.bankCode === undefined ? {} : { bankCode: bank.bankCode };
  for (let attempt = 0; attempt < nationalRedraws; attempt++) {
    const rng = attempt === 0 ? row.rng : rowRng(row.key, row.index, nationalStreamBase + attempt);
    const generated = generateIban(row.format, rng, options, row.context);
    if (generated.nationalCheck !== 'passed') continue;
    const broken = breakNational(row.format, generated.bban, rng, row.context);
    if (broken === undefined) continue;
    const rule = nationalRuleOf(row.format.code)?.rule ?? 'national rule';
    const description = `IBAN checksum is valid but the BBAN's national check digits are wrong (${rule})`;
    const tags =
      bank.bankCode === undefined ? ['national_rule'] : ['national_rule', 'known_bank_method'];
    return caseBody(
      withCheckDigits(row.format, broken),
      'invalid_national_checksum',
      description,
      ...tags,
    );
  }
  return unreachable(`no national case for ${row.format.code} in ${nationalRedraws} draws`);
}

/** Check digits 02, 97, 98 have aliases 99, 00, 01 that leave MOD 97-10 at 1. */
function aliasOf(checkDigits: string): string | undefined {
  return checkDigits === '02'
    ? '99'
    : checkDigits === '97'
      ? '00'
      : checkDigits === '98'
        ? '01'
        : undefined;
}

function checkDigitAliasCase(row: Row): CaseBody {
  let last = draw(row);
  for (let attempt = 0; attempt < aliasSearchDraws; attempt++) {
    const rng = rowRng(row.key, row.index, aliasStreamBase + attempt);
    const generated = attempt === 0 ? last : generateIban(row.format, rng, {}, row.context);
    last = generated;
    const alias = aliasOf(generated.iban.slice(2, 4));
    if (alias === undefined) continue;
    const input = generated.iban.slice(0, 2) + alias + generated.bban;
    const description =
      `Check digits ${alias} instead of ${generated.iban.slice(2, 4)}: ` +
      'MOD 97-10 still gives 1, but 00, 01 and 99 are never issued';
    return caseBody(
      input,
      'invalid_checksum',
      description,
      `check_digits_${alias}`,
      'mod97_still_1',
    );
  }
  const alias = ['00', '01', '99'][row.round % 3] as string;
  const input = last.iban.slice(0, 2) + alias + last.bban;
  return caseBody(
    input,
    'invalid_checksum',
    `Check digits ${alias}, which are never issued`,
    `check_digits_${alias}`,
  );
}

function normalisationCase(row: Row): CaseBody {
  const { iban } = draw(row);
  const groups = formatIbanPrint(iban);
  switch (row.round % 6) {
    case 0:
      return caseBody(
        groups,
        null,
        'Print format: groups of four separated by spaces',
        'print_format',
      );
    case 1:
      return caseBody(iban.toLowerCase(), null, 'Lower-case letters', 'lowercase');
    case 2:
      return caseBody(
        `  ${groups.replace(' ', '   ')} `,
        null,
        'Leading, trailing and repeated spaces',
        'extra_spaces',
      );
    case 3:
      return caseBody(
        groups.replaceAll(' ', '\t'),
        'invalid_characters',
        'Tabs between the groups',
        'tab',
      );
    case 4: {
      const description = 'No-break spaces (U+00A0) between the groups';
      return caseBody(groups.replaceAll(' ', '\u00a0'), 'invalid_characters', description, 'nbsp');
    }
    default:
      return caseBody(
        groups.replaceAll(' ', '-'),
        'invalid_characters',
        'Hyphens between the groups',
        'hyphens',
      );
  }
}
