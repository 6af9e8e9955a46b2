import type { TextLine } from './document.js';
import type { Found } from './extracted.js';
import { summaryLabelsIn } from './label-match.js';
import { amountsIn, type NumberConvention } from './values.js';

type SummaryConcept = 'openingBalance' | 'closingBalance' | 'totalCredits' | 'totalDebits';

/**
 * A balance from its label: the last amount between the label and the next summary label on the line
 * ("Alter Kontostand 01.03.2024 1.842,17 EUR"); when the line holds labels only (a summary box's header), the
 * amount in the same rank on the next line of the page.
 */
function balanceOnLine(
  lines: readonly TextLine[],
  index: number,
  concept: SummaryConcept,
  convention: NumberConvention,
): number | null {
  const line = lines[index] as TextLine;
  const hits = summaryLabelsIn(line.text);
  const rank = hits.findIndex((hit) => hit.concept === concept);
  const hit = hits[rank];
  if (hit === undefined) return null;
  const segment = line.text.slice(hit.end, hits[rank + 1]?.index ?? line.text.length);
  const amounts = amountsIn(segment, convention);
  if (amounts.length > 0) return (amounts[amounts.length - 1] as { minor: number }).minor;
  const below = lines[index + 1];
  const headerOnly = hits.every(
    (each) => amountsIn(line.text.slice(each.end), convention).length === 0,
  );
  if (!headerOnly || below === undefined || below.page !== line.page) return null;
  const values = amountsIn(below.text, convention);
  return values.length === hits.length ? (values[rank] as { minor: number }).minor : null;
}

/** The first (opening) or last (closing) line that prints the concept with an amount. */
export function balanceOf(
  lines: readonly TextLine[],
  concept: SummaryConcept,
  which: 'first' | 'last',
  convention: NumberConvention,
): Found<number> | null {
  const order =
    which === 'first'
      ? lines.map((_, index) => index)
      : lines.map((_, index) => lines.length - 1 - index);
  for (const index of order) {
    const value = balanceOnLine(lines, index, concept, convention);
    const line = lines[index] as TextLine;
    if (value !== null) return { value, page: line.page, text: line.text };
  }
  return null;
}
