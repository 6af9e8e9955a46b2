import { assert } from '../../assert.js';
import { AppError } from '../../errors.js';
import { rngBelow, type Rng } from '../rng.js';
import { completeNationalCheckDigits, nationalCheck, nationalRuleOf } from './national/index.js';
import type { NationalCheckOutcome, NationalContext } from './national/types.js';
import { bbanKinds, type CharKind, type CountryFormat, type Span } from './countries.js';
import { applyFieldConventions, conventionalAlphabets } from './conventions/index.js';
import { ibanCheckDigits } from './mod97.js';
import { normalizeIbanInput } from './normalize.js';
import { validateIban } from './validate.js';

export interface GenerateOptions {
  readonly bankCode?: string;
  readonly branchCode?: string;
}

export interface GeneratedIban {
  readonly iban: string;
  readonly bban: string;
  readonly countryCode: string;
  readonly bankCode: string;
  readonly branchCode: string | null;
  readonly accountNumber: string;
  readonly nationalCheck: NationalCheckOutcome;
}

/** A BBAN component the caller fixed, checked against the country's layout. */
export interface PlacedComponent {
  readonly label: string;
  readonly span: Span;
  readonly value: string;
}

/**
 * A synthetic IBAN: every BBAN position is drawn from its alphabet (see drawAlphabetsOf; left to right, all
 * positions, so a fixed bank code leaves the account draws unchanged), the given bank/branch code
 * is put in place, the country's whole-field conventions (conventions/: a currency, a sort code in the bank's
 * range) are drawn, the national rule completes its check digits, then the IBAN check digits.
 * The output depends only on the rng draws (callers pass rowRng(key, i) for row i).
 */
export function generateIban(
  format: CountryFormat,
  rng: Rng,
  options: GenerateOptions,
  context: NationalContext,
): GeneratedIban {
  const components = givenComponents(format, options);
  const chars = drawBban(format, rng);
  const placed = placeComponents(format, chars, components);
  const draft = applyFieldConventions(format, placed, rng, components);
  const bban = completeNationalCheckDigits(format.code, draft, rng, context);
  assertComponentsKept(format, bban, components);
  return assembleIban(format, bban, context);
}

/**
 * Whether a code fits the country's IBAN bank code field as generateIban would place it (its length and character
 * classes after normalisation): a registry can list other codes under a country (a dataset keyed by tax ids).
 */
export function bankCodeFits(format: CountryFormat, code: string): boolean {
  try {
    checkComponent(format, format.bankCode, code, 'bank code');
    return true;
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
}

function givenComponents(format: CountryFormat, options: GenerateOptions): PlacedComponent[] {
  const components: PlacedComponent[] = [];
  if (options.bankCode !== undefined) {
    components.push(checkComponent(format, format.bankCode, options.bankCode, 'bank code'));
  }
  if (options.branchCode !== undefined) {
    if (format.branchCode === null) {
      throw new AppError('invalid_argument', `${format.code} IBANs carry no branch code`);
    }
    components.push(checkComponent(format, format.branchCode, options.branchCode, 'branch code'));
  }
  return components;
}

function drawBban(format: CountryFormat, rng: Rng): string[] {
  const positions = drawAlphabetsOf(format);
  const chars = new Array<string>(positions.length);
  for (let index = 0; index < positions.length; index++) {
    const alphabet = positions[index] as string;
    chars[index] = alphabet.charAt(rngBelow(rng, alphabet.length));
  }
  return chars;
}

const drawAlphabets = new Map<string, readonly string[]>();

/**
 * The alphabet each BBAN position is drawn from: the registry's class, narrowed by the country's BBAN
 * conventions (conventions/: digits where real accounts are numeric, a reserved digit, an account-type letter;
 * each with its source). Cached per country.
 */
export function drawAlphabetsOf(format: CountryFormat): readonly string[] {
  const cached = drawAlphabets.get(format.code);
  if (cached !== undefined) return cached;
  const result = conventionalAlphabets(format);
  drawAlphabets.set(format.code, result);
  return result;
}

/** SWIFT notation of the positions a span covers, e.g. '8!n' or '10!n1!a1!c'. */
export function spanSpec(format: CountryFormat, span: Span): string {
  const kinds = bbanKinds(format).slice(span.offset, span.offset + span.length);
  let spec = '';
  let runStart = 0;
  for (let index = 1; index <= kinds.length; index++) {
    if (index === kinds.length || kinds[index] !== kinds[runStart]) {
      spec += `${index - runStart}!${kinds[runStart] ?? 'c'}`;
      runStart = index;
    }
  }
  return spec;
}

function fitsKind(kind: CharKind, code: number): boolean {
  const digit = code >= 48 && code <= 57;
  const letter = code >= 65 && code <= 90;
  return kind === 'n' ? digit : kind === 'a' ? letter : digit || letter;
}

const kindNames: Record<CharKind, string> = { n: 'a digit', a: 'a letter', c: 'a letter or digit' };

/** Normalises (spaces out, ASCII upper case) and checks a component; AppError when it cannot fit. */
export function checkComponent(
  format: CountryFormat,
  span: Span,
  raw: string,
  label: string,
): PlacedComponent {
  const value = normalizeIbanInput(raw);
  const spec = spanSpec(format, span);
  if (value.length !== span.length) {
    throw new AppError(
      'invalid_argument',
      `${format.code} ${label} must be ${span.length} characters (${spec}), got ${value.length} ("${raw}")`,
    );
  }
  const kinds = bbanKinds(format);
  for (let index = 0; index < value.length; index++) {
    const kind = kinds[span.offset + index] ?? 'c';
    if (!fitsKind(kind, value.charCodeAt(index))) {
      throw new AppError(
        'invalid_argument',
        `${format.code} ${label} (${spec}): character ${index + 1} must be ${kindNames[kind]}, ` +
          `got '${value.charAt(index)}'`,
      );
    }
  }
  return { label, span, value };
}

/** Writes the components over `chars`; overlapping components must agree. */
export function placeComponents(
  format: CountryFormat,
  chars: string[],
  components: readonly PlacedComponent[],
): string {
  const owner: (string | undefined)[] = new Array<string | undefined>(chars.length);
  for (const component of components) {
    for (let index = 0; index < component.span.length; index++) {
      const position = component.span.offset + index;
      const char = component.value.charAt(index);
      const previous = owner[position];
      if (previous !== undefined && chars[position] !== char) {
        throw new AppError(
          'invalid_argument',
          `${format.code} ${component.label} and ${previous} disagree at BBAN position ${position + 1}`,
        );
      }
      chars[position] = char;
      owner[position] = component.label;
    }
  }
  return chars.join('');
}

/** The national completion may not rewrite what the caller fixed: such input cannot be valid. */
export function assertComponentsKept(
  format: CountryFormat,
  bban: string,
  components: readonly PlacedComponent[],
): void {
  for (const component of components) {
    const { offset, length } = component.span;
    if (bban.slice(offset, offset + length) === component.value) continue;
    const rule = nationalRuleOf(format.code)?.rule ?? 'national rule';
    throw new AppError(
      'invalid_argument',
      `${format.code} ${component.label} "${component.value}" cannot carry valid national check digits (${rule})`,
    );
  }
}

function spanOf(bban: string, span: Span): string {
  return bban.slice(span.offset, span.offset + span.length);
}

/** Adds the IBAN check digits to a finished BBAN; the pair assertion ties it to the validator. */
export function assembleIban(
  format: CountryFormat,
  bban: string,
  context: NationalContext,
): GeneratedIban {
  assert(bban.length === format.bbanLength, `${format.code} BBAN has the registry length`);
  const iban = format.code + ibanCheckDigits(format.code, bban) + bban;
  const outcome = nationalCheck(format.code, bban, context);
  const verdict = validateIban(iban, context);
  assert(
    verdict.valid,
    `generated ${iban} validates (${verdict.error ?? ''}: ${verdict.message ?? ''})`,
  );
  assert(verdict.nationalCheck === outcome, `generated ${iban} has one national outcome`);
  return {
    iban,
    bban,
    countryCode: format.code,
    bankCode: spanOf(bban, format.bankCode),
    branchCode: format.branchCode === null ? null : spanOf(bban, format.branchCode),
    accountNumber: spanOf(bban, format.accountNumber),
    nationalCheck: outcome,
  };
}
