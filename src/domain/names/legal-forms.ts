import { legalForms } from './base-names.js';
import { nameKeys } from './normalize.js';

/**
 * Legal-form words the reference matcher recognises at the end of a name, normalised, longest first, so
 * "GESELLSCHAFT MIT BESCHRANKTER HAFTUNG" is removed whole rather than leaving words behind. Both spellings of
 * every form the benchmark uses; a matcher for production would need every form of every SEPA country.
 */
const suffixes: readonly string[] = [
  ...new Set(
    Object.values(legalForms).flatMap((form) => [...nameKeys(form.short), ...nameKeys(form.full)]),
  ),
].sort((a, b) => b.length - a.length);

/** The name key without a trailing legal form, and the form as written (null when none). */
export function splitLegalForm(key: string): { core: string; form: string | null } {
  for (const suffix of suffixes) {
    if (key === suffix) continue;
    if (key.endsWith(` ${suffix}`)) return { core: key.slice(0, -suffix.length - 1), form: suffix };
  }
  return { core: key, form: null };
}
