import type { NationalCheckOutcome, NationalRule } from './types.js';
import { mod97Numeric, replaceAt, twoDigits } from './bban-math.js';

const codeZero = 48; // '0': digit value = char code − 48

/**
 * BE BBAN: bank 3n, account 7n, check 2n. The check is the first 10 digits mod 97, where a
 * remainder of 0 is written 97 (so 00 never appears).
 */
const body = 10;

function expectedCheck(bban: string): number {
  const remainder = mod97Numeric(bban, 0, body);
  return remainder === 0 ? 97 : remainder;
}

export const belgiumRule: NationalRule = {
  countryCode: 'BE',
  rule: 'First 10 digits (bank 3n + account 7n) mod 97, remainder 0 written 97; digits 11-12',
  source: 'Belgian account number structure (Febelfin / National Bank of Belgium protocol)',
  check(bban): NationalCheckOutcome {
    const actual = (bban.charCodeAt(body) - codeZero) * 10 + (bban.charCodeAt(body + 1) - codeZero);
    return actual === expectedCheck(bban) ? 'passed' : 'failed';
  },
  complete(bban, rng): string {
    void rng; // pure function of the other positions
    return replaceAt(bban, body, twoDigits(expectedCheck(bban)));
  },
};
