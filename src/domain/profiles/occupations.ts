import { rngPick, type Rng } from '../rng.js';

/**
 * Occupations from a neutral international list: the sub-major group titles of the International Standard
 * Classification of Occupations (ISCO-08), International Labour Organization, "International Standard
 * Classification of Occupations: Structure, group definitions and correspondence tables" (ILO, 2012), Volume 1,
 * https://www.ilo.org/publications/international-standard-classification-occupations-2008-isco-08-structure,
 * without major group 0 (armed forces). The titles are the ILO's English ones, the same for every country:
 * faker's job titles are English marketing jargon ("Dynamic Paradigm Liaison") whatever the locale.
 */
export const iscoSubMajorGroups: readonly string[] = [
  'Chief executives, senior officials and legislators',
  'Administrative and commercial managers',
  'Production and specialised services managers',
  'Hospitality, retail and other services managers',
  'Science and engineering professionals',
  'Health professionals',
  'Teaching professionals',
  'Business and administration professionals',
  'Information and communications technology professionals',
  'Legal, social and cultural professionals',
  'Science and engineering associate professionals',
  'Health associate professionals',
  'Business and administration associate professionals',
  'Legal, social, cultural and related associate professionals',
  'Information and communications technicians',
  'General and keyboard clerks',
  'Customer services clerks',
  'Numerical and material recording clerks',
  'Other clerical support workers',
  'Personal service workers',
  'Sales workers',
  'Personal care workers',
  'Protective services workers',
  'Market-oriented skilled agricultural workers',
  'Market-oriented skilled forestry, fishery and hunting workers',
  'Subsistence farmers, fishers, hunters and gatherers',
  'Building and related trades workers, excluding electricians',
  'Metal, machinery and related trades workers',
  'Handicraft and printing workers',
  'Electrical and electronic trades workers',
  'Food processing, wood working, garment and other craft and related trades workers',
  'Stationary plant and machine operators',
  'Assemblers',
  'Drivers and mobile plant operators',
  'Cleaners and helpers',
  'Agricultural, forestry and fishery labourers',
  'Labourers in mining, construction, manufacturing and transport',
  'Food preparation assistants',
  'Street and related sales and service workers',
  'Refuse workers and other elementary workers',
];

export function occupationFor(rng: Rng): string {
  return rngPick(rng, iscoSubMajorGroups);
}
