/**
 * Reading amounts and dates as statements print them. Amounts become integer minor units (cents), so
 * balance arithmetic is exact; dates become ISO yyyy-mm-dd strings, which compare correctly as text.
 *
 * A statement writes its amounts in one convention (CLDR's decimal and grouping symbols of its locale:
 * "1.842,17" de-DE, "1 842,17" fr-FR and pl-PL with a no-break or narrow no-break space, "1,842.17" en-US,
 * "1'842.17" de-CH), so the convention is detected once per document from its own numbers, and dates are set
 * aside before any amount is looked for: "01.03.2024" is never the amount 1.03.
 */

import { monthNumbers } from './labels.js';

export interface NumberConvention {
  /** The decimal mark. */
  readonly decimal: ',' | '.';
  /** Plain spaces group thousands in this document (narrow and no-break spaces always may). */
  readonly spaceGroups: boolean;
}

export const dotDecimal: NumberConvention = { decimal: '.', spaceGroups: false };
export const commaDecimal: NumberConvention = { decimal: ',', spaceGroups: false };

/** Dates: ISO (2025-01-31), day first with dots, dashes or slashes (31.01.2025), month first on US statements. */
export const datePattern = String.raw`\d{4}-\d{2}-\d{2}|\d{1,2}[./-]\d{1,2}[./-]\d{4}`;
const dateExact = new RegExp(`^(?:${datePattern})$`);

const months = monthNumbers();
const monthAlternation = [...months.keys()]
  .sort((a, b) => b.length - a.length)
  .map((name) => name.replace(/[.]/g, '\\.'))
  .join('|');
/** "1 March 2024", "1. März 2024", "1 de marzo de 2024", "01 Mar 2024"; and the US "March 1, 2024". */
const namedDayFirst = String.raw`(\d{1,2})\.?\s+(?:de\s+)?(${monthAlternation})(?![\p{L}])\.?\s+(?:de\s+)?(\d{4})`;
const namedMonthFirst = String.raw`(${monthAlternation})(?![\p{L}])\.?\s+(\d{1,2}),?\s+(\d{4})`;
const namedDate = String.raw`${namedDayFirst}|${namedMonthFirst}`;

/** Dates and day-month stubs ("01.03.") as they stand in a line, for setting them aside. */
const dateInLine = new RegExp(
  String.raw`(?<![\d.,])(?:${datePattern}|\d{1,2}[./]\d{1,2}[./]\d{2}(?![\d.,])|\d{1,2}\.\d{1,2}\.(?!\d))|(?<![\p{L}\d])(?:${namedDate})(?!\d)`,
  'giu',
);

/** The line with every date blanked to spaces of the same length (positions stay valid). */
export function withoutDates(text: string): string {
  return text.replace(dateInLine, (date) => ' '.repeat(date.length));
}

export interface DateInLine {
  readonly iso: string;
  readonly index: number;
  readonly end: number;
}

const dateToken = new RegExp(
  String.raw`(?<![\d.,])(?:${datePattern})(?![\d])|(?<![\p{L}\d])(?:${namedDate})(?!\d)`,
  'giu',
);

export function datesIn(text: string, monthFirst: boolean): DateInLine[] {
  const found: DateInLine[] = [];
  for (const match of text.matchAll(dateToken)) {
    const iso = parseDate(match[0], monthFirst) ?? namedIso(match[0]);
    if (iso !== null) found.push({ iso, index: match.index, end: match.index + match[0].length });
  }
  return found;
}

const groupChars = (convention: NumberConvention) =>
  `${convention.decimal === ',' ? '.' : ','}'’\u00A0\u202F${convention.spaceGroups ? ' ' : ''}`;

const currencyWords = String.raw`EUR|USD|GBP|CHF|PLN|€|\$|£|zł|Fr\.?`;

/**
 * One amount: an optional sign or opening parenthesis, an optional currency symbol, digits grouped in threes
 * or not, the decimal mark and exactly two decimals; then an optional trailing minus, closing parenthesis,
 * currency code and a credit/debit marker (CR/DR, S/H for Soll/Haben).
 */
function amountRegex(convention: NumberConvention): RegExp {
  const group = `[${groupChars(convention).replace(/[\]\\^-]/g, '\\$&')}]`;
  const decimal = convention.decimal === '.' ? '\\.' : ',';
  return new RegExp(
    String.raw`(?<![\d.,'\p{L}])(\()?([-−+])?\s?(?:(?:${currencyWords})\s?)?(\d{1,3}(?:${group}\d{3})+|\d+)${decimal}(\d{2})(?![\d])(\))?(-(?![\d]))?(?:\s?(?:${currencyWords})(?![\p{L}]))?(?:\s?(CR|DR|Cr|Dr|S|H)(?![\p{L}\d]))?`,
    'gu',
  );
}

const regexCache = new Map<string, RegExp>();
function cachedRegex(convention: NumberConvention): RegExp {
  const key = `${convention.decimal}${convention.spaceGroups}`;
  let regex = regexCache.get(key);
  if (regex === undefined) {
    regex = amountRegex(convention);
    regexCache.set(key, regex);
  }
  return regex;
}

export interface AmountInLine {
  /** Minor units; negative for a debit. */
  readonly minor: number;
  /** The sign was printed (minus, parentheses, CR/DR, S/H). */
  readonly signed: boolean;
  readonly raw: string;
  readonly index: number;
}

function amountOf(match: RegExpMatchArray): AmountInLine {
  const [, open, sign, whole = '', cents = '', close, trailing, marker] = match;
  const minor = Number(whole.replace(/\D/g, '')) * 100 + Number(cents);
  const debit =
    (open !== undefined && close !== undefined) ||
    sign === '-' ||
    sign === '−' ||
    trailing !== undefined ||
    marker === 'DR' ||
    marker === 'Dr' ||
    marker === 'S';
  const signed = debit || sign === '+' || marker !== undefined;
  return { minor: debit ? -minor : minor, signed, raw: match[0].trim(), index: match.index ?? 0 };
}

/** Every amount in a line, dates set aside first, in the document's convention. */
export function amountsIn(text: string, convention: NumberConvention): AmountInLine[] {
  return [...withoutDates(text).matchAll(cachedRegex(convention))].map(amountOf);
}

const commaVote = /(?<![\d.,])\d{1,3}(?:[.'’\u00A0\u202F ]\d{3})*,\d{2}(?![\d,.])/g;
const dotVote = /(?<![\d.,])\d{1,3}(?:[,'’\u00A0\u202F ]\d{3})*\.\d{2}(?![\d,.])/g;
const spaceGrouped = /(?<![\d.,])\d{1,3}(?: \d{3})+[.,]\d{2}(?![\d])/;

/** The convention most of the document's numbers (dates set aside) are written in; "." on a tie. */
export function detectConvention(texts: readonly string[]): NumberConvention {
  let comma = 0;
  let dot = 0;
  let spaces = false;
  for (const text of texts) {
    const plain = withoutDates(text);
    comma += plain.match(commaVote)?.length ?? 0;
    dot += plain.match(dotVote)?.length ?? 0;
    spaces ||= spaceGrouped.test(plain);
  }
  return { decimal: comma > dot ? ',' : '.', spaceGroups: spaces };
}

/** The convention of a single printed amount: its last separator before two final digits. */
function conventionOfToken(text: string): NumberConvention {
  const mark = /([.,])\d{2}\D*$/.exec(text)?.[1];
  return { decimal: mark === ',' ? ',' : '.', spaceGroups: /\d \d{3}[.,]/.test(text) };
}

/** Minor units of one printed amount, or null when the text is not exactly one amount. */
export function parseAmount(text: string, convention?: NumberConvention): number | null {
  const trimmed = text.trim();
  const found = amountsIn(trimmed, convention ?? conventionOfToken(trimmed));
  return found.length === 1 && found[0]?.raw === trimmed ? found[0].minor : null;
}

export function formatMinor(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const absolute = Math.abs(minor);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

function iso(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null; // 31.02. and the like
  return date.toISOString().slice(0, 10);
}

const namedDayFirstExact = new RegExp(`^(?:${namedDayFirst})$`, 'iu');
const namedMonthFirstExact = new RegExp(`^(?:${namedMonthFirst})$`, 'iu');

/** A date written with a month name, in any language of the label table. */
function namedIso(text: string): string | null {
  const dayFirst = namedDayFirstExact.exec(text);
  const monthFirst = dayFirst === null ? namedMonthFirstExact.exec(text) : null;
  const [day, name, year] =
    dayFirst !== null
      ? [dayFirst[1], dayFirst[2], dayFirst[3]]
      : [monthFirst?.[2], monthFirst?.[1], monthFirst?.[3]];
  const month = name === undefined ? undefined : months.get(name.toLowerCase());
  return month === undefined ? null : iso(Number(year), month, Number(day));
}

export function parseDate(text: string, monthFirst: boolean): string | null {
  const trimmed = text.trim();
  if (!dateExact.test(trimmed)) return null;
  if (/^\d{4}-/.test(trimmed)) {
    const [year, month, day] = trimmed.split('-').map(Number) as [number, number, number];
    return iso(year, month, day);
  }
  const [a, b, year] = trimmed.split(/[./-]/).map(Number) as [number, number, number];
  const slashed = trimmed.includes('/');
  return slashed && monthFirst ? iso(year, a, b) : iso(year, b, a);
}

export function daysBetween(startIso: string, endIso: string): number {
  return Math.round((Date.parse(endIso) - Date.parse(startIso)) / 86_400_000);
}
