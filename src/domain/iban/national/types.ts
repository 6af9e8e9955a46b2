import type { Rng } from '../../rng.js';

/** Which national (BBAN-internal) check ran on a row, and its outcome (issue 3). */
export type NationalCheckOutcome = 'passed' | 'failed' | 'not_applicable' | 'not_checked';

/**
 * What the pure domain may ask the registry. Germany's account check method depends on the bank
 * code (Bundesbank file positions 151-152); the registry answers, the domain never does I/O.
 */
export interface NationalContext {
  /** The published check method for a bank code (e.g. '00'..'E4' for DE), or undefined if unknown. */
  accountCheckMethod(countryCode: string, bankCode: string): string | undefined;
}

export const noRegistryContext: NationalContext = { accountCheckMethod: () => undefined };

/** One country's national rule: check a BBAN, and complete a drafted BBAN so it passes. */
export interface NationalRule {
  readonly countryCode: string;
  /** Human description for the docs table, and the public source it follows. */
  readonly rule: string;
  readonly source: string;
  check(bban: string, context: NationalContext): NationalCheckOutcome;
  /** Returns a BBAN of the same length and layout whose national check passes (rng for any redraw). */
  complete(bban: string, rng: Rng, context: NationalContext): string;
}
