import { rngPick, type Rng } from '../../rng.js';
import type { IdScheme, IdSubject } from './types.js';

const monthLetters = 'ABCDEHLMPRST';
/** Check-character values of characters in odd positions (1st, 3rd, ...), for 0-9 then A-Z (DM 23/12/1976). */
const oddValues = [
  1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8,
  12, 14, 16, 10, 22, 25, 24, 23,
];
/** Real Belfiore (cadastral) codes: Roma, Milano, Napoli, Torino, Palermo, Genova, Bologna, Firenze. */
const birthplaces = ['H501', 'F205', 'F839', 'L219', 'G273', 'D969', 'A944', 'D612'] as const;

function indexOf(char: string): number {
  const code = char.charCodeAt(0);
  return code <= 57 ? code - 48 : code - 65 + 10;
}

export function codiceFiscaleCheck(fifteen: string): string {
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const char = fifteen.charAt(i);
    const index = indexOf(char);
    // Positions are counted from 1: index 0 is the first, an odd position.
    sum += i % 2 === 0 ? (oddValues[index] as number) : index < 10 ? index : index - 10;
  }
  return String.fromCharCode(65 + (sum % 26));
}

const letters = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z]/g, '');
const consonantsOf = (text: string) => letters(text).replace(/[AEIOU]/g, '');
const vowelsOf = (text: string) => letters(text).replace(/[^AEIOU]/g, '');

export function surnameCode(surname: string): string {
  return (consonantsOf(surname) + vowelsOf(surname) + 'XXX').slice(0, 3);
}

export function givenNameCode(name: string): string {
  const consonants = consonantsOf(name);
  if (consonants.length >= 4)
    return consonants.charAt(0) + consonants.charAt(2) + consonants.charAt(3);
  return (consonants + vowelsOf(name) + 'XXX').slice(0, 3);
}

function birthCode(subject: IdSubject): string {
  const [year, month, day] = subject.dateOfBirth.split('-').map(Number) as [number, number, number];
  const dayCode = day + (subject.sex === 'female' ? 40 : 0);
  return `${String(year % 100).padStart(2, '0')}${monthLetters.charAt(month - 1)}${String(dayCode).padStart(2, '0')}`;
}

/**
 * Italian codice fiscale: surname and name codes, birth year, month letter, day (+40 for women), the
 * birthplace's Belfiore code, and the check character (Decreto Ministeriale 23 dicembre 1976).
 */
export const itCodiceFiscale: IdScheme = {
  id: 'it_codice_fiscale',
  name: 'Codice fiscale',
  source: 'DM 23/12/1976: odd/even position tables, sum mod 26',
  generate(subject, rng: Rng) {
    const fifteen =
      surnameCode(subject.lastName) +
      givenNameCode(subject.firstName) +
      birthCode(subject) +
      rngPick(rng, birthplaces);
    return fifteen + codiceFiscaleCheck(fifteen);
  },
  validate(value) {
    return (
      /^[A-Z]{6}\d{2}[ABCDEHLMPRST]\d{2}[A-Z]\d{3}[A-Z]$/.test(value) &&
      codiceFiscaleCheck(value.slice(0, 15)) === value.charAt(15)
    );
  },
  agrees(value, subject) {
    return (
      value.slice(0, 6) === surnameCode(subject.lastName) + givenNameCode(subject.firstName) &&
      value.slice(6, 11) === birthCode(subject)
    );
  },
};
