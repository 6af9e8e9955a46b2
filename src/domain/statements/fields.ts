import { countryFormatOf } from '../iban/countries.js';
import type { TextLine } from './document.js';
import { amountPattern, datePattern, parseAmount, parseDate } from './values.js';

/** Where a value was read: the page and the line's text (cut to the evidence bound by the caller). */
export interface Found<T> {
  readonly value: T;
  readonly page: number;
  readonly text: string;
}

export interface Transaction {
  readonly date: string; // ISO
  readonly description: string;
  readonly amount: number; // minor units, negative = debit
  readonly balance: number | null;
  readonly page: number;
  readonly text: string;
  /** Font of the amount as drawn; null when unknown (OCR). */
  readonly amountFont: string | null;
}

export interface StatementFields {
  readonly accountHolder: Found<string> | null;
  readonly bankName: Found<string> | null;
  readonly bic: Found<string> | null;
  readonly ibans: readonly Found<string>[];
  readonly period: Found<{ start: string; end: string }> | null;
  readonly currency: Found<string> | null;
  readonly openingBalance: Found<number> | null;
  readonly closingBalance: Found<number> | null;
  readonly routingNumber: Found<string> | null;
  readonly accountNumber: Found<string> | null;
  readonly transactions: readonly Transaction[];
  /** Slashed dates were read month first (a US statement). */
  readonly monthFirst: boolean;
  /** The document calls itself a statement (title or "statement period"). */
  readonly statementWording: boolean;
}

const label = (words: string) => new RegExp(String.raw`^\s*(?:${words})\s*[:#]?\s*(.+?)\s*$`, 'i');
const holderLabel = label('account holder|account name|account owner|customer name');
const bankLabel = label('bank name|bank');
const bicPattern =
  /\b(?:BIC|SWIFT(?: code)?|BIC\/SWIFT)\s*:?\s*([A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?)\b/;
const periodPattern = new RegExp(
  String.raw`period\s*:?\s*(${datePattern})\s*(?:-|–|to|until|through)\s*(${datePattern})`,
  'i',
);
const currencyPattern = /\bcurrency\s*:?\s*([A-Z]{3})\b/i;
const openingPattern = new RegExp(
  String.raw`\b(?:opening|previous|starting|beginning|start) balance\b[^0-9+−-]*(${amountPattern})`,
  'i',
);
const closingPattern = new RegExp(
  String.raw`\b(?:closing|new|ending|end) balance\b[^0-9+−-]*(${amountPattern})`,
  'i',
);
const routingPattern =
  /\b(?:routing(?: number| no\.?)?|ABA(?: number)?|RTN)\s*[:#]?\s*([0-9][0-9 -]{7,12}[0-9])\b/i;
const accountPattern = /\baccount (?:number|no\.?)\s*[:#]?\s*([0-9][0-9 -]{3,22}[0-9])\b/i;
/** Country code, check digits, then groups of four with optional single spaces, and a shorter last group. */
const ibanCandidate = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g;
const transactionPattern = new RegExp(
  String.raw`^(${datePattern})\s+(.+?)\s+(${amountPattern})(?:\s+(${amountPattern}))?\s*$`,
);

/** The compact IBAN cut to its country's length (text after it on the line is not part of it). */
function ibanFrom(candidate: string): string {
  const compact = candidate.replace(/ /g, '');
  const length = countryFormatOf(compact.slice(0, 2))?.ibanLength;
  return length !== undefined && compact.length > length ? compact.slice(0, length) : compact;
}

function firstMatch<T>(
  lines: readonly TextLine[],
  read: (line: TextLine) => T | null,
): Found<T> | null {
  for (const line of lines) {
    const value = read(line);
    if (value !== null) return { value, page: line.page, text: line.text };
  }
  return null;
}

function fontOfAmount(line: TextLine, amountText: string): string | null {
  for (let index = line.spans.length - 1; index >= 0; index--) {
    const span = line.spans[index];
    if (span !== undefined && span.text.includes(amountText)) return span.font;
  }
  return null;
}

function looksUs(lines: readonly TextLine[]): boolean {
  return lines.some((line) => routingPattern.test(line.text) || /\bUSD\b|\$\s?\d/.test(line.text));
}

function ibansOf(lines: readonly TextLine[]): Found<string>[] {
  const seen = new Set<string>();
  const found: Found<string>[] = [];
  for (const line of lines) {
    for (const match of line.text.matchAll(ibanCandidate)) {
      const iban = ibanFrom(match[0]);
      if (iban.length < 15 || seen.has(iban)) continue;
      seen.add(iban);
      found.push({ value: iban, page: line.page, text: line.text });
    }
  }
  return found;
}

function transactionsOf(
  lines: readonly TextLine[],
  monthFirst: boolean,
  max: number,
): Transaction[] {
  const rows: Transaction[] = [];
  for (const line of lines) {
    if (rows.length >= max) break;
    const match = transactionPattern.exec(line.text);
    if (match === null) continue;
    const date = parseDate(match[1] as string, monthFirst);
    const amount = parseAmount(match[3] as string);
    if (date === null || amount === null) continue;
    const balance = match[4] === undefined ? null : parseAmount(match[4]);
    rows.push({
      date,
      description: (match[2] as string).trim(),
      amount,
      balance,
      page: line.page,
      text: line.text,
      amountFont: fontOfAmount(line, (match[3] as string).trim()),
    });
  }
  return rows;
}

/** Reads the fields a statement prints. Labels are English ("Account holder:", "Opening balance", ...): README. */
export function readFields(lines: readonly TextLine[], transactionsMax: number): StatementFields {
  const monthFirst = looksUs(lines);
  const amountOf = (pattern: RegExp) => (line: TextLine) => {
    const match = pattern.exec(line.text);
    return match === null ? null : parseAmount(match[1] as string);
  };
  return {
    accountHolder: firstMatch(lines, (line) => holderLabel.exec(line.text)?.[1] ?? null),
    bankName: firstMatch(lines, (line) => {
      const name = bankLabel.exec(line.text)?.[1];
      return name === undefined || /^(?:code|identifier|BIC|SWIFT)\b/i.test(name) ? null : name;
    }),
    bic: firstMatch(lines, (line) => bicPattern.exec(line.text)?.[1] ?? null),
    ibans: ibansOf(lines),
    period: firstMatch(lines, (line) => {
      const match = periodPattern.exec(line.text);
      if (match === null) return null;
      const start = parseDate(match[1] as string, monthFirst);
      const end = parseDate(match[2] as string, monthFirst);
      return start === null || end === null ? null : { start, end };
    }),
    currency: firstMatch(
      lines,
      (line) => currencyPattern.exec(line.text)?.[1]?.toUpperCase() ?? null,
    ),
    openingBalance: firstMatch(lines, amountOf(openingPattern)),
    closingBalance: firstMatch(lines, amountOf(closingPattern)),
    routingNumber: firstMatch(
      lines,
      (line) => routingPattern.exec(line.text)?.[1]?.replace(/[ -]/g, '') ?? null,
    ),
    accountNumber: firstMatch(
      lines,
      (line) => accountPattern.exec(line.text)?.[1]?.replace(/[ -]/g, '') ?? null,
    ),
    transactions: transactionsOf(lines, monthFirst, transactionsMax),
    monthFirst,
    statementWording: lines.some((line) =>
      /\bstatement\b|\bperiod\b|\bkontoauszug\b|\brelev[ée]\b/i.test(line.text),
    ),
  };
}
