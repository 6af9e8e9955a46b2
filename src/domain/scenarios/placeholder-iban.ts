import { generateIban, type CountryFormat } from '../iban/index.js';
import type { NationalContext } from '../iban/national/types.js';
import type { Rng } from '../rng.js';

/**
 * A placeholder account that must never pass as a real positive fixture: a synthetic IBAN whose check digits are
 * then changed, so ISO 7064 mod 97 fails by construction (exactly one pair of check digits is right).
 */
export function placeholderIban(
  format: CountryFormat,
  rng: Rng,
  bankCode: string | undefined,
  context: NationalContext,
): string {
  const valid = generateIban(format, rng, bankCode === undefined ? {} : { bankCode }, context).iban;
  const right = Number(valid.slice(2, 4));
  const wrong = right >= 97 ? right - 1 : right + 1; // stays within 02..98 and differs from the right pair
  return `${valid.slice(0, 2)}${String(wrong).padStart(2, '0')}${valid.slice(4)}`;
}
