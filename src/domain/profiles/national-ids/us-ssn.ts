import { rngBelow, type Rng } from '../../rng.js';
import type { IdScheme } from './types.js';

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/**
 * US Social Security number in a never-issued form. SSA never issues area numbers 000, 666 or 900-999
 * (SSA, "Social Security Number Randomization", 2011). The IRS does use area 9xx for ITINs, but only with group
 * numbers 50-65, 70-88, 90-92 and 94-99; our values take area 900-999 with a group of 01-49, which is
 * neither an SSN nor an ITIN, so they can never identify anyone.
 */
export const usSsn: IdScheme = {
  id: 'us_ssn_never_issued',
  name: 'US SSN (never-issued area 9xx, non-ITIN group)',
  source: 'SSA SSN randomization (areas 000, 666, 900-999 never issued); IRS ITIN group ranges',
  generate(_subject, rng: Rng) {
    return `${900 + rngBelow(rng, 100)}-${pad(1 + rngBelow(rng, 49), 2)}-${pad(1 + rngBelow(rng, 9999), 4)}`;
  },
  validate(value) {
    const match = /^(9\d\d)-(\d\d)-(\d{4})$/.exec(value);
    if (match === null) return false;
    const group = Number(match[2]);
    return group >= 1 && group <= 49 && match[3] !== '0000';
  },
  agrees: () => true,
};
