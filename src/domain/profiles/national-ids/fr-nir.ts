import { rngBelow, type Rng } from '../../rng.js';
import type { IdScheme } from './types.js';

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const keyOf = (thirteen: string) => 97 - Number(BigInt(thirteen) % 97n);

/**
 * French NIR (numéro de sécurité sociale): sex (1 male, 2 female), year and month of birth, département,
 * commune, order number, then the key 97 - (first 13 digits mod 97) (INSEE). Synthetic values use metropolitan
 * départements 01-95 without Corsica (2A/2B need the letter substitution) and random commune and order numbers.
 */
export const frNir: IdScheme = {
  id: 'fr_nir',
  name: "Numéro d'inscription au répertoire (NIR)",
  source: 'INSEE: key = 97 - (NIR mod 97)',
  generate(subject, rng: Rng) {
    const [year, month] = subject.dateOfBirth.split('-');
    let department = 1 + rngBelow(rng, 95);
    if (department === 20) department = 21;
    const body = `${subject.sex === 'male' ? 1 : 2}${(year ?? '').slice(2)}${month}${pad(department, 2)}${pad(1 + rngBelow(rng, 990), 3)}${pad(1 + rngBelow(rng, 999), 3)}`;
    return body + pad(keyOf(body), 2);
  },
  validate(value) {
    if (!/^[12]\d{14}$/.test(value)) return false;
    return keyOf(value.slice(0, 13)) === Number(value.slice(13));
  },
  agrees(value, subject) {
    const [year, month] = subject.dateOfBirth.split('-');
    return (
      value[0] === (subject.sex === 'male' ? '1' : '2') &&
      value.slice(1, 3) === (year ?? '').slice(2) &&
      value.slice(3, 5) === month
    );
  },
};
