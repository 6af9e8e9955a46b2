import { assert } from '../../assert.js';
import { AppError } from '../../errors.js';
import { prefixOfCode, type RoutingPrefix } from './prefixes.js';
import { limits } from '../../limits.js';

/**
 * ABA routing transit number: XXXXYYYYC = Federal Reserve routing symbol (4), institution
 * identifier (4), check digit (1). Valid when 3(d1+d4+d7) + 7(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10)
 * (source: http://www.netipedia.com/index.php/RTN, "Internal checksums"; Regulation CC, 12 CFR 229
 * App. A, for the routing-symbol part).
 *
 * Why it catches every single-digit error: changing digit i from d to d' moves the sum by
 * w_i·(d'−d) with w_i ∈ {3, 7, 1}. Each weight is coprime to 10, so w_i·(d'−d) ≡ 0 (mod 10) only
 * when d' ≡ d. It misses an adjacent transposition exactly when the two digits differ by 5: the
 * sum moves by (w_i − w_{i+1})·(d_{i+1} − d_i) and every weight difference (−4, 6, −2) is even.
 */
export const routingNumberLength = 9; // XXXX YYYY C
const bodyLength = routingNumberLength - 1;
export const abaWeights: readonly number[] = [3, 7, 1, 3, 7, 1, 3, 7, 1];
const modulus = 10;
const charZero = 48; // '0'
const charNine = 57; // '9'

/** Checked in this order; the first that applies is the verdict's error. */
export const routingErrors = [
  'invalid_characters',
  'invalid_length',
  'invalid_prefix',
  'invalid_checksum',
] as const;
export type RoutingError = (typeof routingErrors)[number];

export interface RoutingVerdict {
  /** The input exactly as given: nothing is trimmed or reformatted. */
  readonly input: string;
  readonly valid: boolean;
  readonly error: RoutingError | null;
  /** Meaning of the first two characters when both are digits (also for invalid inputs), else null. */
  readonly prefix: RoutingPrefix | null;
  /** The check digit the first eight digits call for, when the input is nine digits; else null. */
  readonly expected_check_digit: number | null;
}

function isAsciiDigit(code: number): boolean {
  return code >= charZero && code <= charNine;
}

/** Weighted sum of the first `length` digits of an all-digit string. */
function weightedSum(digits: string, length: number): number {
  let sum = 0;
  for (let index = 0; index < length; index++) {
    sum += (digits.charCodeAt(index) - charZero) * (abaWeights[index] as number);
  }
  return sum;
}

/** Check digit for eight digits: the d9 (weight 1) that brings the weighted sum to a multiple of 10. */
export function abaCheckDigit(first8: string): number {
  assert(
    first8.length === bodyLength && allDigits(first8),
    'abaCheckDigit needs exactly 8 ASCII digits',
  );
  return (modulus - (weightedSum(first8, bodyLength) % modulus)) % modulus;
}

/** The 3-7-1 test on nine digits (no prefix rule). */
export function abaChecksumValid(nineDigits: string): boolean {
  assert(
    nineDigits.length === routingNumberLength && allDigits(nineDigits),
    'abaChecksumValid needs 9 ASCII digits',
  );
  return weightedSum(nineDigits, routingNumberLength) % modulus === 0;
}

function allDigits(text: string): boolean {
  for (let index = 0; index < text.length; index++)
    if (!isAsciiDigit(text.charCodeAt(index))) return false;
  return true;
}

function leadingPrefix(input: string): RoutingPrefix | null {
  if (input.length < 2) return null;
  const tens = input.charCodeAt(0);
  const units = input.charCodeAt(1);
  if (!isAsciiDigit(tens) || !isAsciiDigit(units)) return null;
  return prefixOfCode((tens - charZero) * modulus + (units - charZero));
}

/**
 * Validates one routing number. Strict: only ASCII digits count, so spaces, hyphens and
 * non-ASCII digits are 'invalid_characters' (callers that accept formatted input trim first).
 */
export function checkRoutingNumber(input: string): RoutingVerdict {
  const prefix = leadingPrefix(input);
  const verdict = (error: RoutingError | null, expected: number | null): RoutingVerdict => ({
    input,
    valid: error === null,
    error,
    prefix,
    expected_check_digit: expected,
  });
  if (!allDigits(input)) return verdict('invalid_characters', null);
  if (input.length !== routingNumberLength) return verdict('invalid_length', null);
  const expected = (modulus - (weightedSum(input, bodyLength) % modulus)) % modulus;
  if (prefix === null || prefix.kind === 'unassigned') return verdict('invalid_prefix', expected);
  const found = input.charCodeAt(bodyLength) - charZero;
  return verdict(found === expected ? null : 'invalid_checksum', expected);
}

/** One verdict per input, in input order. Throws invalid_argument above limits.usRouting.listPaidMax. */
export function checkRoutingList(inputs: readonly string[]): RoutingVerdict[] {
  if (inputs.length > limits.usRouting.listPaidMax) {
    throw new AppError(
      'invalid_argument',
      `routing_numbers holds at most ${limits.usRouting.listPaidMax} items`,
      {
        max_items: limits.usRouting.listPaidMax,
        received_items: inputs.length,
      },
    );
  }
  return inputs.map((input) => checkRoutingNumber(input));
}
