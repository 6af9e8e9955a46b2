import { methods00to29 } from './methods-00-29.js';
import { methods30to59 } from './methods-30-59.js';
import { methods60to79 } from './methods-60-79.js';
import { methods80to99 } from './methods-80-99.js';
import { methodsA0toB9 } from './methods-a0-b9.js';
import { methodsC0toE4 } from './methods-c0-e4.js';
import type { GermanMethod } from './weights.js';

/**
 * Method code -> check function, for every method the Bundesbank describes (00..99, A0..E4).
 * Code 12 is "frei" (never assigned) in the Bundesbank document, so it has no entry.
 */
export const germanMethodTable: ReadonlyMap<string, GermanMethod> = new Map(
  Object.entries({
    ...methods00to29,
    ...methods30to59,
    ...methods60to79,
    ...methods80to99,
    ...methodsA0toB9,
    ...methodsC0toE4,
  }),
);

/** Methods whose check digit is computed from digits of the bank code (ESER legacy numbers). */
export const bankCodeDependentMethods: ReadonlySet<string> = new Set(['52', '53', 'B6', 'C0']);
