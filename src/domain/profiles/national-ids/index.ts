import { deIdnr } from './de-idnr.js';
import { esDni } from './es-dni.js';
import { frNir } from './fr-nir.js';
import { itCodiceFiscale } from './it-codice-fiscale.js';
import { nlBsn } from './nl-bsn.js';
import { plPesel } from './pl-pesel.js';
import type { IdScheme } from './types.js';
import { usSsn } from './us-ssn.js';

export type { IdScheme, IdSubject } from './types.js';

/**
 * The national identifier of a profile (`tax_id`), by ISO country code: only schemes whose check algorithm is
 * published. Countries not listed get no identifier (null) rather than a made-up format.
 */
export const taxIdSchemes: Readonly<Record<string, IdScheme>> = {
  DE: deIdnr,
  ES: esDni,
  FR: frNir,
  IT: itCodiceFiscale,
  NL: nlBsn,
  PL: plPesel,
};

/** The `ssn` field: only the US has one, in a never-issued form. */
export const ssnSchemes: Readonly<Record<string, IdScheme>> = { US: usSsn };

export { deIdnr, esDni, frNir, itCodiceFiscale, nlBsn, plPesel, usSsn };
