import type { Rng } from '../../../rng.js';

/**
 * Deutsche Bundesbank account check-digit methods (Prüfzifferberechnungsmethoden 00..E4).
 * INTERFACE ONLY until the implementation lands in this folder (issue 3): every method answers
 * 'not_checked' so nothing is called invalid on a method this module does not know yet.
 */
export type GermanCheckResult = 'passed' | 'failed' | 'not_checked';

/** `account` is the 10-digit Kontonummer (left-padded with zeros), `bankCode` the 8-digit BLZ. */
export function checkGermanAccount(method: string, bankCode: string, account: string): GermanCheckResult {
  void method;
  void bankCode;
  void account;
  return 'not_checked';
}

/** A 10-digit account that passes `method` for `bankCode`, or null when the method is not implemented. */
export function generateGermanAccount(method: string, bankCode: string, rng: Rng): string | null {
  void method;
  void bankCode;
  void rng;
  return null;
}

/** Method codes this module implements. */
export const germanMethods: readonly string[] = [];
