import type { TextLine } from './document.js';
import type { Found } from './extracted.js';
import { alternation, findLabel } from './label-match.js';
import { wordsOf } from './labels.js';
import { amountsIn, datesIn, type NumberConvention } from './values.js';

let joinCache: RegExp | undefined;
let fromCache: RegExp | undefined;

/** What stands between a period's two dates: a dash, or a "to" word of any language ("bis", "au", "t/m"). */
function joiner(): RegExp {
  joinCache ??= new RegExp(String.raw`^(?:[-–—]|(?:${alternation(wordsOf('periodTo'))}))$`, 'iu');
  return joinCache;
}

function fromWord(): RegExp {
  fromCache ??= new RegExp(
    String.raw`(?<![\p{L}])(?:${alternation(wordsOf('periodFrom'))})\s*:?\s*$`,
    'iu',
  );
  return fromCache;
}

/** "Periode 01-03-2024 t/m 31-03-2024", "du 01/03/2024 au 31/03/2024", "vom ... bis ...", "2024-03-01 - 2024-03-31". */
export function periodOf(
  lines: readonly TextLine[],
  monthFirst: boolean,
  convention: NumberConvention,
): Found<{ start: string; end: string }> | null {
  for (const line of lines) {
    const dates = datesIn(line.text, monthFirst);
    for (let index = 0; index + 1 < dates.length; index++) {
      const [start, end] = [dates[index], dates[index + 1]] as const;
      if (start === undefined || end === undefined) continue;
      const between = line.text.slice(start.end, end.index).trim();
      if (!joiner().test(between)) continue;
      const before = line.text.slice(0, start.index);
      const labelled =
        findLabel(line.text, 'period') !== null ||
        findLabel(line.text, 'title') !== null ||
        fromWord().test(before);
      if (labelled || amountsIn(line.text, convention).length === 0)
        return { value: { start: start.iso, end: end.iso }, page: line.page, text: line.text };
    }
  }
  return null;
}

/** The date printed right after a statement-date label. */
export function statementDateOf(
  lines: readonly TextLine[],
  monthFirst: boolean,
): Found<string> | null {
  for (const line of lines) {
    const hit = findLabel(line.text, 'statementDate');
    if (hit === null) continue;
    const date = datesIn(line.text, monthFirst).find(
      (candidate) =>
        candidate.index >= hit.end &&
        /^\s*[:#]?\s*$/.test(line.text.slice(hit.end, candidate.index)),
    );
    if (date !== undefined) return { value: date.iso, page: line.page, text: line.text };
  }
  return null;
}
