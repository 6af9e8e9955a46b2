import { labelsOf, wordsOf, type LabelConcept } from './labels.js';

// Compiled forms of the label table: whole words, case-insensitive, any whitespace between words.

const escape = (word: string) =>
  word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/ /g, String.raw`\s+`);

export const alternation = (words: readonly string[]) => words.map(escape).join('|');

const cache = new Map<string, RegExp>();

/** A concept's labels anywhere in a line (not inside a longer word). */
export function labelRegex(concept: LabelConcept, anchored = false): RegExp {
  const key = `${concept}:${anchored}`;
  let regex = cache.get(key);
  if (regex === undefined) {
    const start = anchored ? String.raw`^\s*` : String.raw`(?<![\p{L}\d])`;
    regex = new RegExp(`${start}(?:${alternation(labelsOf(concept))})(?![\\p{L}])`, 'iu');
    cache.set(key, regex);
  }
  return regex;
}

export interface LabelHit {
  readonly concept: LabelConcept;
  readonly index: number;
  readonly end: number;
}

/** Where a concept's label stands in a line, or null. */
export function findLabel(text: string, concept: LabelConcept, anchored = false): LabelHit | null {
  const match = labelRegex(concept, anchored).exec(text);
  return match === null
    ? null
    : { concept, index: match.index, end: match.index + match[0].length };
}

/** The balance-like concepts a summary row or a summary header may hold. */
export const summaryConcepts: readonly LabelConcept[] = [
  'openingBalance',
  'totalCredits',
  'totalDebits',
  'closingBalance',
];

/** Every summary label in a line, left to right, overlapping hits dropped (the longer one wins). */
export function summaryLabelsIn(text: string): LabelHit[] {
  const hits: LabelHit[] = [];
  for (const concept of summaryConcepts) {
    const regex = new RegExp(labelRegex(concept).source, 'giu');
    for (const match of text.matchAll(regex))
      hits.push({ concept, index: match.index, end: match.index + match[0].length });
  }
  hits.sort((a, b) => a.index - b.index || b.end - a.end);
  const merged: LabelHit[] = [];
  for (const hit of hits) {
    const last = merged[merged.length - 1];
    if (last !== undefined && hit.index < last.end) continue;
    // "Alter Kontostand / Opening balance": one label printed in two languages.
    if (last !== undefined && last.concept === hit.concept)
      merged[merged.length - 1] = { ...last, end: hit.end };
    else merged.push(hit);
  }
  return merged;
}

let anyLabelCache: RegExp | undefined;
/** Any label of any concept followed by a colon: where a labelled value on a shared line ends. */
export function nextLabelRegex(): RegExp {
  anyLabelCache ??= new RegExp(
    String.raw`\s(?:${alternation(
      (
        ['holder', 'account', 'iban', 'period', 'statementDate', 'currency', 'routing'] as const
      ).flatMap((concept) => labelsOf(concept)),
    )}|bic|swift|blz)\s*[:#]`,
    'iu',
  );
  return anyLabelCache;
}

let salutationCache: RegExp | undefined;
export function salutationRegex(): RegExp {
  salutationCache ??= new RegExp(
    String.raw`^(?:${alternation(wordsOf('salutations'))})\.?\s+`,
    'iu',
  );
  return salutationCache;
}
