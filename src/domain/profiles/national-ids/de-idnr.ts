import { rngBelow, type Rng } from '../../rng.js';
import { digitsOnly, type IdScheme } from './types.js';

/** ISO 7064 MOD 11,10 (the IdNr check digit, Abgabenordnung §139b with the BZSt description). */
export function iso7064Mod1110(digits: readonly number[]): number {
  let product = 10;
  for (const digit of digits) {
    let sum = (digit + product) % 10;
    if (sum === 0) sum = 10;
    product = (sum * 2) % 11;
  }
  const check = 11 - product;
  return check === 10 ? 0 : check;
}

/** Digits 1-10: no leading zero, exactly one digit repeated (two or three times), at least one digit absent. */
function structureHolds(body: readonly number[]): boolean {
  if (body[0] === 0) return false;
  const counts = new Array<number>(10).fill(0);
  for (const digit of body) counts[digit] = (counts[digit] ?? 0) + 1;
  const repeated = counts.filter((count) => count > 1);
  return repeated.length === 1 && (repeated[0] === 2 || repeated[0] === 3);
}

/**
 * German tax identification number (IdNr): 11 digits. Synthetic values: nine distinct digits plus one of them
 * repeated at a random place, so the structure rule holds, then the MOD 11,10 check digit.
 */
export const deIdnr: IdScheme = {
  id: 'de_idnr',
  name: 'Steuerliche Identifikationsnummer (IdNr)',
  source: 'BZSt / ISO 7064 MOD 11,10',
  generate(_subject, rng: Rng) {
    for (;;) {
      const pool = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
      for (let i = pool.length - 1; i > 0; i--) {
        const j = rngBelow(rng, i + 1);
        [pool[i], pool[j]] = [pool[j] as number, pool[i] as number];
      }
      const body = pool.slice(0, 9);
      body.splice(rngBelow(rng, 10), 0, body[rngBelow(rng, 9)] as number);
      if (structureHolds(body)) return body.join('') + String(iso7064Mod1110(body));
    }
  },
  validate(value) {
    if (!/^\d{11}$/.test(value)) return false;
    const digits = digitsOnly(value);
    const body = digits.slice(0, 10);
    return structureHolds(body) && iso7064Mod1110(body) === digits[10];
  },
  agrees: () => true, // the IdNr encodes nothing about its holder
};
