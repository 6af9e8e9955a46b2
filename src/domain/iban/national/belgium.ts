import {
  defineRule,
  type NationalCheckAt,
  type NationalCheckOutcome,
  type NationalRule,
} from './types.js';
import { mod97Numeric, replaceAt, twoDigits } from './bban-math.js';

const codeZero = 48; // '0': digit value = char code − 48

/**
 * BE BBAN: bank 3n, account 7n, check 2n. The check is the first 10 digits mod 97, where a
 * remainder of 0 is written 97 (so 00 never appears).
 */
const body = 10;

/** `base`: where the BBAN starts in `text`. */
function expectedCheck(text: string, base: number): number {
  const remainder = mod97Numeric(text, base, base + body);
  return remainder === 0 ? 97 : remainder;
}

const checkAt: NationalCheckAt = (text, start): NationalCheckOutcome => {
  const at = start + body;
  const actual = (text.charCodeAt(at) - codeZero) * 10 + (text.charCodeAt(at + 1) - codeZero);
  return actual === expectedCheck(text, start) ? 'passed' : 'failed';
};

export const belgiumRule: NationalRule = defineRule({
  countryCode: 'BE',
  rule: 'First 10 digits (bank 3n + account 7n) mod 97, remainder 0 written 97; digits 11-12',
  source: 'Belgian account number structure (Febelfin / National Bank of Belgium protocol)',
  checkAt,
  complete(bban, rng): string {
    void rng; // pure function of the other positions
    return replaceAt(bban, body, twoDigits(expectedCheck(bban, 0)));
  },
});
