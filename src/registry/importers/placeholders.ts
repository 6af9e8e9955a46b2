/**
 * Rows a publisher lists for codes that belong to no bank: the NBB marks free protocol-code ranges "VRIJ" /
 * "LIBRE" and withheld ones "Onbeschikbaar" / "Indisponible" (name columns, with "VRIJ" / "NAP" in the BIC
 * column), and schwifty's Belgian table carries the same rows over. Such a row is kept where the source's
 * diffs need it (record type 'unassigned', never indexed: no lookup, search or IBAN match finds it) or
 * dropped from derived tables; it is never served as a bank.
 */
import { foldText } from '../bank-directory.js';

/** Folded placeholder names, exactly as they occur in the publisher files (NBB Dutch / French columns). */
const PLACEHOLDER_NAMES = new Set(['VRIJ', 'LIBRE', 'ONBESCHIKBAAR', 'INDISPONIBLE']);

export function isPlaceholderName(name: string | null | undefined): boolean {
  return name !== null && name !== undefined && PLACEHOLDER_NAMES.has(foldText(name));
}

/** True when every non-empty name is a placeholder and there is at least one: the row names no bank. */
export function namesNoBank(names: readonly (string | null | undefined)[]): boolean {
  const given = names.filter(
    (name): name is string => name !== null && name !== undefined && name.trim() !== '',
  );
  return given.length > 0 && given.every((name) => isPlaceholderName(name));
}
