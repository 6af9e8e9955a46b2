import { countryFormatOf } from '../iban/countries.js';
import { balanceOf } from './balances.js';
import type { TextLine } from './document.js';
import { holderOf } from './holder.js';
import { alternation, findLabel } from './label-match.js';
import { labelsOf, languageOf, type LanguageCode } from './labels.js';
import { periodOf, statementDateOf } from './period.js';
import { transactionsOf, type Checkpoint } from './rows.js';
import { detectConvention, type NumberConvention } from './values.js';

export type { Found, Transaction } from './extracted.js';
import type { Found, Transaction } from './extracted.js';

export interface StatementFields {
  readonly accountHolder: Found<string> | null;
  readonly bankName: Found<string> | null;
  readonly bic: Found<string> | null;
  readonly ibans: readonly Found<string>[];
  readonly period: Found<{ start: string; end: string }> | null;
  readonly statementDate: Found<string> | null;
  readonly currency: Found<string> | null;
  readonly openingBalance: Found<number> | null;
  readonly closingBalance: Found<number> | null;
  readonly routingNumber: Found<string> | null;
  readonly accountNumber: Found<string> | null;
  readonly transactions: readonly Transaction[];
  /** Booking lines whose amount could not be read (an OCR misreading): sums over the rows are then incomplete. */
  readonly unreadableRows: readonly Found<string>[];
  /** Balances printed where the statement carries its total from one page to the next. */
  readonly carriedForward: readonly Checkpoint[];
  /** Slashed dates were read month first (a US statement). */
  readonly monthFirst: boolean;
  readonly convention: NumberConvention;
  /** The language whose labels the statement prints most. */
  readonly language: LanguageCode | null;
  /** The document calls itself a statement (title or period label). */
  readonly statementWording: boolean;
}

const bicPattern =
  /\b(?:BIC|SWIFT(?: code)?|BIC\/SWIFT)\s*:?\s*([A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?)\b/;
const currencyCode = /^\s*[:]?\s*([A-Z]{3})\b/;
/** Country code, check digits, then groups of four with optional single spaces, and a shorter last group. */
const ibanCandidate = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g;
const routingDigits = String.raw`(\d{9}|\d{4}[ -]\d{4}[ -]\d|\d{3}[ -]\d{3}[ -]\d{3})(?!\d)`;
let routingCache: RegExp | undefined;
let accountCache: RegExp | undefined;
let bankCache: RegExp | undefined;

/** "Bank: <name>" with the colon: a letterhead that merely starts with "Bank" is no label. */
function bankRegex(): RegExp {
  bankCache ??= new RegExp(
    String.raw`^\s*(?:${alternation(labelsOf('bankName'))})\s*:\s*(.+?)\s*$`,
    'iu',
  );
  return bankCache;
}

function routingRegex(): RegExp {
  routingCache ??= new RegExp(
    String.raw`(?<![\p{L}])(?:${alternation(labelsOf('routing'))})(?:\s*(?:\/|number|no\.?|#|:|\(|\)|transit)\s*)*\s*${routingDigits}`,
    'iu',
  );
  return routingCache;
}

function accountRegex(): RegExp {
  accountCache ??= new RegExp(
    String.raw`(?<![\p{L}])(?:${alternation(labelsOf('account'))})(?![\p{L}])\s*[.:#]?\s*([0-9][0-9 -]{3,22}[0-9])(?![\d])`,
    'iu',
  );
  return accountCache;
}

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

function looksUs(lines: readonly TextLine[]): boolean {
  return lines.some((line) => routingRegex().test(line.text) || /\bUSD\b|\$\s?\d/.test(line.text));
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

function currencyOf(lines: readonly TextLine[]): Found<string> | null {
  return firstMatch(lines, (line) => {
    const hit = findLabel(line.text, 'currency');
    return hit === null ? null : (currencyCode.exec(line.text.slice(hit.end))?.[1] ?? null);
  });
}

function identifiersOf(lines: readonly TextLine[]) {
  return {
    bankName: firstMatch(lines, (line) => {
      const name = bankRegex().exec(line.text)?.[1];
      return name === undefined || /^(?:code|identifier|BIC|SWIFT)\b/i.test(name) ? null : name;
    }),
    bic: firstMatch(lines, (line) => bicPattern.exec(line.text)?.[1] ?? null),
    ibans: ibansOf(lines),
    routingNumber: firstMatch(
      lines,
      (line) => routingRegex().exec(line.text)?.[1]?.replace(/[ -]/g, '') ?? null,
    ),
    accountNumber: firstMatch(
      lines,
      (line) => accountRegex().exec(line.text)?.[1]?.replace(/[ -]/g, '') ?? null,
    ),
  };
}

/**
 * Reads the fields a statement prints, in any language of the label table (labels.ts) and in the number
 * convention the document itself uses.
 */
export function readFields(lines: readonly TextLine[], transactionsMax: number): StatementFields {
  const texts = lines.map((line) => line.text);
  const monthFirst = looksUs(lines);
  const convention = detectConvention(texts);
  const openingBalance = balanceOf(lines, 'openingBalance', 'first', convention);
  const { rows, checkpoints, unreadable } = transactionsOf(lines, {
    monthFirst,
    convention,
    opening: openingBalance?.value ?? null,
    max: transactionsMax,
  });
  const period = periodOf(lines, monthFirst, convention);
  return {
    accountHolder: holderOf(lines),
    ...identifiersOf(lines),
    period,
    statementDate: statementDateOf(lines, monthFirst),
    currency: currencyOf(lines),
    openingBalance,
    closingBalance: balanceOf(lines, 'closingBalance', 'last', convention),
    transactions: rows,
    unreadableRows: unreadable.map(({ page, text }) => ({ value: text, page, text })),
    carriedForward: checkpoints,
    monthFirst,
    convention,
    language: languageOf(texts),
    statementWording:
      period !== null ||
      lines.some(
        (line) => findLabel(line.text, 'title') !== null || findLabel(line.text, 'period') !== null,
      ),
  };
}
