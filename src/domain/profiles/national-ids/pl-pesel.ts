import { rngBelow, type Rng } from '../../rng.js';
import { digitsOnly, type IdScheme } from './types.js';

const weights = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];

function checkDigit(digits: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (weights[i] as number) * (digits[i] as number);
  return (10 - (sum % 10)) % 10;
}

/** Month offsets by century (PESEL): 1800s +80, 1900s +0, 2000s +20, 2100s +40, 2200s +60. */
function monthCode(year: number, month: number): number {
  return month + (year >= 2000 ? 20 : year >= 1900 ? 0 : 80);
}

/**
 * Polish PESEL: YYMMDD with the century in the month, a 4-digit serial whose last digit is even for women and
 * odd for men, and the weighted check digit (Ustawa o ewidencji ludności, art. 15).
 */
export const plPesel: IdScheme = {
  id: 'pl_pesel',
  name: 'PESEL',
  source: 'weights 1,3,7,9,1,3,7,9,1,3; check = (10 - sum mod 10) mod 10',
  generate(subject, rng: Rng) {
    const [year, month, day] = subject.dateOfBirth.split('-').map(Number) as [
      number,
      number,
      number,
    ];
    const sexDigit = 2 * rngBelow(rng, 5) + (subject.sex === 'male' ? 1 : 0);
    const body = `${String(year % 100).padStart(2, '0')}${String(monthCode(year, month)).padStart(2, '0')}${String(day).padStart(2, '0')}${String(rngBelow(rng, 1000)).padStart(3, '0')}${sexDigit}`;
    return body + String(checkDigit(digitsOnly(body)));
  },
  validate(value) {
    return /^\d{11}$/.test(value) && checkDigit(digitsOnly(value)) === Number(value[10]);
  },
  agrees(value, subject) {
    const [year, month, day] = subject.dateOfBirth.split('-').map(Number) as [
      number,
      number,
      number,
    ];
    const expected = `${String(year % 100).padStart(2, '0')}${String(monthCode(year, month)).padStart(2, '0')}${String(day).padStart(2, '0')}`;
    return (
      value.slice(0, 6) === expected && Number(value[9]) % 2 === (subject.sex === 'male' ? 1 : 0)
    );
  },
};
