import { assert } from '../../assert.js';

/**
 * ISO 7064 MOD 97-10 as ISO 13616 applies it: move the first four characters to the end, read
 * letters as 10..35 (two decimal digits) and digits as themselves, take the number modulo 97.
 * A charCode loop over the string: no BigInt, no regex, no intermediate strings. The remainder
 * grows in int32 range and is reduced only when the next step could leave it.
 */

const modulus = 97;
/** r * 100 + 35 stays below 2^31 while r <= reduceAbove, so V8 keeps the arithmetic in int32. */
const reduceAbove = 9_999_999;
const codeNine = 57;
const digitBase = 48; // '0'
const letterBase = 55; // 'A' (65) reads as 10

/**
 * Continues `remainder` over text[start, end). Precondition (callers check): only 0-9 and A-Z.
 * The result is not reduced; pass it back in or reduce with `% 97`.
 */
export function mod97Continue(remainder: number, text: string, start: number, end: number): number {
  let value = remainder;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    value = code <= codeNine ? value * 10 + (code - digitBase) : value * 100 + (code - letterBase);
    if (value > reduceAbove) value %= modulus;
  }
  return value;
}

/** The MOD 97-10 remainder of an IBAN in electronic format (1 for a valid check). */
export function ibanMod97(iban: string): number {
  assert(iban.length >= 4, 'an IBAN has a country code and check digits');
  const bbanPart = mod97Continue(0, iban, 4, iban.length) % modulus;
  return mod97Continue(bbanPart, iban, 0, 4) % modulus;
}

/** The two check digits (02..98) that make `countryCode + digits + bban` valid. */
export function ibanCheckDigits(countryCode: string, bban: string): string {
  assert(countryCode.length === 2, 'a country code has two letters');
  let remainder = mod97Continue(0, bban, 0, bban.length) % modulus;
  remainder = mod97Continue(remainder, countryCode, 0, 2) % modulus;
  const check = 98 - ((remainder * 100) % modulus); // check digits "00" contribute remainder * 100
  return check < 10 ? `0${check}` : String(check);
}
