import type { TextLine } from './document.js';
import type { Transaction } from './extracted.js';
import { findLabel, labelRegex } from './label-match.js';
import {
  amountsIn,
  datesIn,
  withoutDates,
  type AmountInLine,
  type NumberConvention,
} from './values.js';

/** A row as printed, before its sign is settled: unsigned amounts may be debits in a debit column. */
interface RawRow {
  readonly date: string;
  readonly description: string;
  readonly amount: AmountInLine;
  readonly balance: number | null;
  readonly page: number;
  readonly text: string;
  readonly amountFont: string | null;
  readonly line: number;
  /** A booking line just before this row could not be read. */
  readonly gapBefore: boolean;
}

/** A printed balance carried between pages, and how many rows precede it. */
export interface Checkpoint {
  readonly value: number;
  readonly rowsBefore: number;
  readonly page: number;
  readonly text: string;
}

/** Where a debit and a credit column stand (a table header naming both, PDF text layer only). */
interface Columns {
  readonly debit: number;
  readonly credit: number;
}

function spanOfAmount(line: TextLine, amountText: string): TextLine['spans'][number] | null {
  const digits = amountText.replace(/[^\d]/g, '');
  for (let index = line.spans.length - 1; index >= 0; index--) {
    const span = line.spans[index];
    if (span !== undefined && span.text.replace(/[^\d]/g, '').includes(digits)) return span;
  }
  return null;
}

function columnsOf(line: TextLine): Columns | null {
  const whole = (concept: 'debitColumn' | 'creditColumn') =>
    line.spans.find((span) => {
      const match = labelRegex(concept, true).exec(span.text);
      return match !== null && match[0].trim().length === span.text.trim().length;
    })?.x;
  const debit = whole('debitColumn');
  const credit = whole('creditColumn');
  return debit === undefined || credit === undefined ? null : { debit, credit };
}

/** An unsigned amount under a debit column is a debit. */
function placed(
  amount: AmountInLine,
  x: number | undefined,
  columns: Columns | null,
): AmountInLine {
  if (amount.signed || columns === null || x === undefined) return amount;
  const debit = Math.abs(x - columns.debit) < Math.abs(x - columns.credit);
  return {
    ...amount,
    minor: debit ? -Math.abs(amount.minor) : Math.abs(amount.minor),
    signed: true,
  };
}

const decimalFigure = /(?<![\d.,])\d+(?:[.,'’ \u00A0\u202F]\d{3})*[.,]\d{2}(?!\d)/g;

/** A line that starts with a date and prints a figure with decimals, yet no amount could be read from it (OCR). */
function looksLikeBooking(text: string, monthFirst: boolean): boolean {
  const first = datesIn(text, monthFirst)[0];
  return (
    first !== undefined &&
    text.slice(0, first.index).trim() === '' &&
    /\d[.,]\d{2}/.test(withoutDates(text))
  );
}

/** Lines that print a balance or a total rather than a booking. */
export function isSummaryLine(text: string): boolean {
  return (
    ['openingBalance', 'closingBalance', 'carriedForward', 'totalCredits', 'totalDebits'] as const
  ).some((concept) => findLabel(text, concept) !== null);
}

function rawRow(
  line: TextLine,
  index: number,
  context: { monthFirst: boolean; convention: NumberConvention; columns: Columns | null },
): RawRow | null {
  const { monthFirst, convention } = context;
  const dates = datesIn(line.text, monthFirst);
  const first = dates[0];
  if (first === undefined || line.text.slice(0, first.index).trim() !== '') return null;
  const amounts = amountsIn(line.text, convention);
  // A figure with two decimals that is no amount in this document's convention ("2399.27" among "5956,34"): an
  // OCR misreading, and the row cannot be trusted.
  if ((withoutDates(line.text).match(decimalFigure) ?? []).length > amounts.length) return null;
  const printed = amounts.length >= 2 ? amounts[amounts.length - 2] : amounts[0];
  if (printed === undefined) return null;
  const span = spanOfAmount(line, printed.raw);
  const amount = placed(printed, span?.x, context.columns);
  const leading = dates.filter((date) => date.index < amount.index);
  const descriptionStart =
    leading.length > 0 ? (leading[leading.length - 1] as { end: number }).end : first.end;
  const balance = amounts.length >= 2 ? (amounts[amounts.length - 1] as AmountInLine).minor : null;
  return {
    date: first.iso,
    description: line.text.slice(descriptionStart, amount.index).trim(),
    amount,
    balance,
    page: line.page,
    text: line.text,
    amountFont: span?.font ?? null,
    line: index,
    gapBefore: false,
  };
}

/**
 * Signs: a printed sign or marker wins; an unsigned amount whose row balance shows the direction takes it;
 * otherwise unsigned means credit when the document signs its debits elsewhere, and stays unknown when it
 * never does (debit and credit columns without a balance column).
 */
function settleSigns(rows: readonly RawRow[], opening: number | null): Transaction[] {
  const usesSigns = rows.some((row) => row.amount.signed);
  let previous = opening;
  return rows.map((row) => {
    const size = Math.abs(row.amount.minor);
    let amount = row.amount.minor;
    let signKnown = row.amount.signed || usesSigns;
    if (!row.amount.signed && previous !== null && row.balance !== null) {
      if (previous + size === row.balance) [amount, signKnown] = [size, true];
      else if (previous - size === row.balance) [amount, signKnown] = [-size, true];
    }
    previous = row.balance ?? (previous === null ? null : previous + amount);
    const { date, description, balance, page, text, amountFont, gapBefore } = row;
    return { date, description, amount, balance, page, text, amountFont, signKnown, gapBefore };
  });
}

export function transactionsOf(
  lines: readonly TextLine[],
  context: {
    monthFirst: boolean;
    convention: NumberConvention;
    opening: number | null;
    max: number;
  },
): { rows: Transaction[]; checkpoints: Checkpoint[]; unreadable: Checkpoint[] } {
  const raw: RawRow[] = [];
  const unreadable: Checkpoint[] = [];
  const checkpoints: Checkpoint[] = [];
  let columns: Columns | null = null;
  lines.forEach((line, index) => {
    if (raw.length >= context.max) return;
    columns = columnsOf(line) ?? columns;
    if (isSummaryLine(line.text)) {
      const carried = findLabel(line.text, 'carriedForward');
      const amounts =
        carried === null ? [] : amountsIn(line.text.slice(carried.end), context.convention);
      const last = amounts[amounts.length - 1];
      if (last !== undefined)
        checkpoints.push({
          value: last.minor,
          rowsBefore: raw.length,
          page: line.page,
          text: line.text,
        });
      return;
    }
    const row = rawRow(line, index, { ...context, columns });
    if (row !== null)
      raw.push(
        unreadable.length > 0 && unreadable[unreadable.length - 1]?.rowsBefore === raw.length
          ? { ...row, gapBefore: true }
          : row,
      );
    else if (looksLikeBooking(line.text, context.monthFirst))
      unreadable.push({ value: 0, rowsBefore: raw.length, page: line.page, text: line.text });
  });
  return { rows: settleSigns(raw, context.opening), checkpoints, unreadable };
}
