import { jaroWinkler } from '@skyra/jaro-winkler';
import type { VopLabel } from './labels.js';
import { splitLegalForm } from './legal-forms.js';
import { nameKeys } from './normalize.js';

/**
 * The reference matcher: decides from the two names alone (it never sees a benchmark row's expected label).
 *
 * 1. A payer name that is empty after trimming: NOAP (nothing to verify).
 * 2. Normalised names equal (normalize.ts): MATCH.
 * 3. Equal once legal forms are set aside (one written in full, abbreviated, or missing): CLOSE_MATCH.
 * 4. The same words in another order (with or without legal forms), or given names reduced to initials: CLOSE_MATCH.
 * 5. Jaro-Winkler similarity of the names without legal forms at least `closeMatchMin`: CLOSE_MATCH.
 * 6. Otherwise NO_MATCH.
 * Only exact normalised equality is a MATCH: a typo is close, never equal, whatever its score.
 */
export const matcherThresholds = {
  /**
   * 0.85: the close-match threshold one VoP responder product publishes for individuals (IPF VoP Responder
   * documentation, Icon Solutions, "name matching": close >= 0.85, match >= 0.95; corporate 0.75 / 0.85;
   * https://docs.ipfdev.co.uk/en/services/IPF_RELEASE_2025.1.0/verification-of-payee-responder/features/name-matching.html).
   * Taken as published, not tuned on the matrix.
   */
  closeMatchMin: 0.85,
} as const;

export interface MatchDecision {
  readonly label: VopLabel;
  /** Which rule decided (the numbered rules above). */
  readonly rule:
    'empty' | 'equal' | 'legal_form' | 'word_order' | 'initials' | 'similarity' | 'different';
  readonly similarity: number;
}

function tokensSorted(text: string): string {
  return text.split(' ').sort().join(' ');
}

/** "J SMITH" against "JOHN SMITH": every single-letter word is the initial of the word in its place. */
function initialsOf(payer: string, account: string): boolean {
  const p = payer.split(' ');
  const a = account.split(' ');
  if (p.length !== a.length || !p.some((word) => word.length === 1)) return false;
  return p.every(
    (word, index) =>
      word === a[index] || (word.length === 1 && (a[index] as string).startsWith(word)),
  );
}

function decidePair(payer: string, account: string): MatchDecision {
  if (payer === account) return { label: 'MATCH', rule: 'equal', similarity: 1 };
  const p = splitLegalForm(payer).core;
  const a = splitLegalForm(account).core;
  if (p === a) return { label: 'CLOSE_MATCH', rule: 'legal_form', similarity: 1 };
  // Whole names too: a trailing word that reads as a legal form may be a name (Swedish Åsa, Norwegian ASA).
  if (tokensSorted(p) === tokensSorted(a) || tokensSorted(payer) === tokensSorted(account))
    return { label: 'CLOSE_MATCH', rule: 'word_order', similarity: 1 };
  if (initialsOf(p, a)) return { label: 'CLOSE_MATCH', rule: 'initials', similarity: 1 };
  const similarity = jaroWinkler(p, a);
  return similarity >= matcherThresholds.closeMatchMin
    ? { label: 'CLOSE_MATCH', rule: 'similarity', similarity }
    : { label: 'NO_MATCH', rule: 'different', similarity };
}

const strength: Readonly<Record<VopLabel, number>> = {
  MATCH: 3,
  CLOSE_MATCH: 2,
  NO_MATCH: 1,
  NOAP: 0,
};

/** The best decision over the names' normalised keys (umlauts spelled both ways). */
export function referenceMatch(payerName: string, accountName: string): MatchDecision {
  if (payerName.trim() === '') return { label: 'NOAP', rule: 'empty', similarity: 0 };
  let best: MatchDecision | undefined;
  for (const payer of nameKeys(payerName)) {
    for (const account of nameKeys(accountName)) {
      const decision = decidePair(payer, account);
      if (
        best === undefined ||
        strength[decision.label] > strength[best.label] ||
        (decision.label === best.label && decision.similarity > best.similarity)
      )
        best = decision;
    }
  }
  return best as MatchDecision;
}
