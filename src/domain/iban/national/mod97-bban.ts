import {
  defineRule,
  type NationalCheckAt,
  type NationalCheckOutcome,
  type NationalRule,
} from './types.js';
import {
  allDigits,
  mod97Numeric,
  replaceAt,
  replaceLettersWithDigits,
  twoDigits,
} from './bban-math.js';

/**
 * ISO 7064 MOD 97-10 over the whole BBAN, the two national check digits last: the BBAN read as a
 * number is ≡ 1 (mod 97). Completing computes 98 − (rest × 100 mod 97), giving 02..98.
 * Verification is the ISO 7064 one (remainder 1), so the equivalent forms 00/01/99 of 97/98/02 are
 * accepted too (php-iban reports published Narodna banka Srbije numbers whose check is 97 off).
 *
 * A structure allowing letters (MK: 10c) is only checked when the account is all digits: the national
 * number is numeric and the rule is defined on digits; letters give 'not_checked', not 'failed'.
 * `complete` therefore redraws any letter as a digit before computing the check digits.
 *
 * On the validation path (`checkAt` with `bbanMod97`) the IBAN checksum pass has already reduced
 * the BBAN modulo 97, so the rule is one comparison. For an all-digit BBAN that remainder is the
 * national one; a BBAN with letters never reaches it (not_checked first).
 */
export function mod97BbanRule(countryCode: string, layout: string, source: string): NationalRule {
  // Only MK's structure admits letters; every other BBAN here is all digits (checked by the engine).
  const mayHoldLetters = /\dc\b/.test(layout);
  const checkAt: NationalCheckAt = (text, start, _context, bbanMod97): NationalCheckOutcome => {
    if (mayHoldLetters && !allDigits(text, start, text.length)) return 'not_checked';
    const remainder = bbanMod97 ?? mod97Numeric(text, start, text.length);
    return remainder === 1 ? 'passed' : 'failed';
  };
  return defineRule({
    countryCode,
    rule: `ISO 7064 MOD 97-10 over the whole BBAN (${layout}); last 2 digits are the check`,
    source,
    checkAt,
    complete(bban, rng): string {
      const body = bban.length - 2;
      const numeric = replaceLettersWithDigits(bban, 0, body, rng);
      const remainder = (mod97Numeric(numeric, 0, body) * 100) % 97;
      return replaceAt(numeric, body, twoDigits(98 - remainder));
    },
  });
}
