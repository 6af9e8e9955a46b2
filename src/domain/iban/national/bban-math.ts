import { unreachable } from '../../../assert.js';
import type { Rng } from '../../rng.js';
import { rngDigits } from '../../rng.js';

/**
 * Charcode arithmetic shared by the national rules. `check` runs on the validation hot path, so
 * nothing here allocates except the string builders used by `complete`. Rules read single digits
 * as `charCodeAt(i) - 48` in place: measured under tsx, a tiny imported digitAt() helper was not
 * inlined and made the Luhn and MOD 11,10 checks 2-4x slower.
 */

const codeZero = 48; // '0'

/** True when every character in [start, end) is an ASCII digit. */
export function allDigits(text: string, start: number, end: number): boolean {
  for (let index = start; index < end; index++) {
    const digit = text.charCodeAt(index) - codeZero;
    if (digit < 0 || digit > 9) return false;
  }
  return true;
}

// r*100 + 99 must stay an exact double (< 2^53 ≈ 9.007e15); folding once r passes 1e13 keeps every
// step exact while needing only one or two `%` operations for a whole BBAN.
const foldAbove = 1e13;

/**
 * The digits in [start, end) read as one decimal number, modulo 97, for text the caller knows is
 * all digits (the engine has checked the BBAN structure): two digits per step, no validation.
 */
export function mod97Numeric(text: string, start: number, end: number): number {
  let remainder = 0;
  let index = start;
  for (; index + 1 < end; index += 2) {
    remainder =
      remainder * 100 +
      (text.charCodeAt(index) - codeZero) * 10 +
      (text.charCodeAt(index + 1) - codeZero);
    if (remainder > foldAbove) remainder %= 97;
  }
  if (index < end) remainder = remainder * 10 + (text.charCodeAt(index) - codeZero);
  return remainder % 97;
}

/** Sum of digit × weight over the digits starting at `start`, one weight per digit. */
export function weightedDigitSum(text: string, start: number, weights: readonly number[]): number {
  let sum = 0;
  for (let offset = 0; offset < weights.length; offset++) {
    sum += (text.charCodeAt(start + offset) - codeZero) * (weights[offset] ?? 0);
  }
  return sum;
}

/** `text` with the characters from `index` on replaced by `insert` (same length). */
export function replaceAt(text: string, index: number, insert: string): string {
  return text.slice(0, index) + insert + text.slice(index + insert.length);
}

/** `text` with every non-digit in [start, end) redrawn as a digit (unchanged when none). */
export function replaceLettersWithDigits(
  text: string,
  start: number,
  end: number,
  rng: Rng,
): string {
  if (allDigits(text, start, end)) return text;
  let out = text.slice(0, start);
  for (let index = start; index < end; index++) {
    const digit = text.charCodeAt(index) - codeZero;
    out += digit >= 0 && digit <= 9 ? text.charAt(index) : rngDigits(rng, 1);
  }
  return out + text.slice(end);
}

/** Two-digit, zero-padded decimal (check digits 00..99). */
export function twoDigits(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

/**
 * Redraws [start, end) with fresh digits until `accept` says the draft can be completed.
 * Used where a modulus-11 rule has one remainder without a valid check digit (p = 1/11 per draw).
 */
const maxRedraws = 64; // a run of 64 rejections has probability 11^-64: exhausting it means a bug
export function redrawUntil(
  bban: string,
  start: number,
  end: number,
  rng: Rng,
  accept: (candidate: string) => boolean,
): string {
  let candidate = bban;
  for (let attempt = 0; attempt < maxRedraws; attempt++) {
    if (accept(candidate)) return candidate;
    candidate = replaceAt(candidate, start, rngDigits(rng, end - start));
  }
  return unreachable(`no completable draft after ${maxRedraws} redraws`);
}
