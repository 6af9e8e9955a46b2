import type { Rng } from '../../rng.js';

/** Which national (BBAN-internal) check ran on a row, and its outcome. */
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

/** See NationalRule.checkAt. */
export type NationalCheckAt = (
  text: string,
  start: number,
  context: NationalContext,
  bbanMod97?: number,
) => NationalCheckOutcome;

/** One country's national rule: check a BBAN, and complete a drafted BBAN so it passes. */
export interface NationalRule {
  readonly countryCode: string;
  /** Human description for the docs table, and the public source it follows. */
  readonly rule: string;
  readonly source: string;
  check(bban: string, context: NationalContext): NationalCheckOutcome;
  /**
   * Optional hot-path form of `check`, same outcome for the same BBAN. The BBAN is `text` from index
   * `start` to its end (validateIban passes the whole IBAN and 4, so no BBAN string is sliced), and
   * the caller has already matched it against the registry structure. `bbanMod97`, when given, is
   * the BBAN's ISO 7064 MOD 97-10 remainder (letters read as 10..35, value 0..96) that the IBAN
   * checksum pass computed anyway; rules that are a BBAN mod 97 use it instead of recomputing.
   * Implementations must not rely on `this`: the engine stores and calls the function on its own.
   */
  readonly checkAt?: NationalCheckAt;
  /** Returns a BBAN of the same length and layout whose national check passes (rng for any redraw). */
  complete(bban: string, rng: Rng, context: NationalContext): string;
}

/** A rule written as its hot-path `checkAt`; `check` is `checkAt` from index 0, the same for every such rule. */
export type RuleWithCheckAt = Omit<NationalRule, 'check' | 'checkAt'> & {
  readonly checkAt: NationalCheckAt;
};

export function defineRule(rule: RuleWithCheckAt): NationalRule {
  const checkAt = rule.checkAt;
  return { ...rule, check: (bban, context) => checkAt(bban, 0, context) };
}
