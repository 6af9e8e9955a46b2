import { rngBelow, type Rng } from '../../rng.js';
import type { IdScheme } from './types.js';

/** Ministerio del Interior: the control letter is this alphabet at (number mod 23). */
export const dniLetters = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** Spanish DNI: eight digits and the control letter. Synthetic values are random numbers 10000000-99999999. */
export const esDni: IdScheme = {
  id: 'es_dni',
  name: 'Documento Nacional de Identidad (DNI)',
  source: 'Ministerio del Interior: letter = TRWAGMYFPDXBNJZSQVHLCKE[number mod 23]',
  generate(_subject, rng: Rng) {
    const number = 10_000_000 + rngBelow(rng, 90_000_000);
    return `${number}${dniLetters.charAt(number % 23)}`;
  },
  validate(value) {
    const match = /^([XYZ]\d{7}|\d{8})([A-Z])$/.exec(value);
    if (match === null) return false;
    const digits = (match[1] as string).replace(/^[XYZ]/, (letter) =>
      String('XYZ'.indexOf(letter)),
    );
    return dniLetters.charAt(Number(digits) % 23) === match[2];
  },
  agrees: () => true,
};
