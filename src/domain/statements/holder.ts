import type { TextLine } from './document.js';
import type { Found } from './extracted.js';
import { findLabel, nextLabelRegex, salutationRegex } from './label-match.js';
import type { LabelConcept } from './labels.js';

const labelledConcepts: readonly LabelConcept[] = [
  'holder',
  'account',
  'iban',
  'period',
  'statementDate',
  'openingBalance',
  'closingBalance',
  'title',
  'routing',
  'currency',
];

/** A person's or firm's name: letters, a few words, no digits. */
function plausibleName(text: string): boolean {
  return (
    text.length >= 3 &&
    text.length <= 80 &&
    !/\d/.test(text) &&
    /^\p{L}[\p{L}'’.,&\s-]*$/u.test(text) &&
    text.split(/\s+/).length <= 6
  );
}

/** The value after a label on the same line, cut where the next label begins; or the next line's text. */
export function labelledValue(
  lines: readonly TextLine[],
  concept: LabelConcept,
): Found<string> | null {
  for (const [index, line] of lines.entries()) {
    const hit = findLabel(line.text, concept, true);
    if (hit === null) continue;
    let value = line.text.slice(hit.end).replace(/^\s*[:#]?\s*/, '');
    const next = nextLabelRegex().exec(` ${value}`);
    if (next !== null) value = value.slice(0, Math.max(0, next.index - 1));
    value = value.trim();
    const below = lines[index + 1];
    if (value === '' && below !== undefined && below.page === line.page) value = below.text.trim();
    if (value !== '') return { value, page: line.page, text: line.text };
  }
  return null;
}

/** Postcodes: four or five digits (most of Europe, US ZIP), Polish 00-000, UK and Dutch forms. */
const postcode =
  /\b\d{4,5}\b|\b\d{2}-\d{3}\b|\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z\d]{2}\b|\b\d{4} ?[A-Z]{2}\b/;
const institution =
  /bank|kasse|banque|banco|banca|crédit|credit|\b(?:ag|gmbh|sa|nv|bv|spa|plc|ltd|inc|eg)\b/i;

function addressName(text: string): string | null {
  const name = text.replace(salutationRegex(), '').trim();
  if (!plausibleName(name) || institution.test(text) || name.split(/\s+/).length < 2) return null;
  return labelledConcepts.some((concept) => findLabel(text, concept) !== null) ? null : name;
}

/** The address block stands at the head of page 1 (where a window envelope shows it): only those lines are looked at. */
const addressBlockLinesMax = 20;

/** The name at the head of an address block: a name line, then a street line with a number, then a postcode. */
function fromAddressBlock(lines: readonly TextLine[]): Found<string> | null {
  const head = lines.filter((line) => line.page === 1).slice(0, addressBlockLinesMax);
  for (const [index, line] of head.entries()) {
    const street = head[index + 1];
    const town = head[index + 2];
    if (street === undefined || !/\d/.test(street.text)) continue;
    if (!postcode.test(street.text) && (town === undefined || !postcode.test(town.text))) continue;
    for (const candidate of [line.text, line.spans[0]?.text ?? '']) {
      const name = addressName(candidate.trim());
      if (name !== null) return { value: name, page: line.page, text: line.text };
    }
  }
  return null;
}

export function holderOf(lines: readonly TextLine[]): Found<string> | null {
  const labelled = labelledValue(lines, 'holder');
  if (labelled !== null) {
    const name = labelled.value.replace(salutationRegex(), '').trim();
    if (plausibleName(name)) return { ...labelled, value: name };
  }
  return fromAddressBlock(lines);
}
