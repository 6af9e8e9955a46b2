import type { Rng } from '../../rng.js';
import type { NationalCheckOutcome, NationalContext, NationalRule } from './types.js';

/**
 * Country code -> national check-digit rule. Countries absent here have no BBAN-internal check
 * digits in force (or only obsolete ones, e.g. the Dutch 11-proof): their rows say 'not_applicable'.
 */
const rules: ReadonlyMap<string, NationalRule> = new Map<string, NationalRule>([]);

export function nationalRuleOf(countryCode: string): NationalRule | undefined {
  return rules.get(countryCode);
}

export function nationalCheck(countryCode: string, bban: string, context: NationalContext): NationalCheckOutcome {
  const rule = rules.get(countryCode);
  return rule === undefined ? 'not_applicable' : rule.check(bban, context);
}

export function completeNationalCheckDigits(
  countryCode: string,
  bban: string,
  rng: Rng,
  context: NationalContext,
): string {
  const rule = rules.get(countryCode);
  return rule === undefined ? bban : rule.complete(bban, rng, context);
}

export function countriesWithNationalRules(): string[] {
  return [...rules.keys()].sort();
}
