/**
 * The index entries of one record: BIC11, BIC8, LEI, national codes (country, scheme, value), the bank
 * code as it appears in an IBAN, and folded name/identifier tokens for search. Pure functions.
 */
import { countryFormatOf } from '../../domain/iban/index.js';
import { foldText } from '../bank-directory.js';
import type { RegistryRecord } from '../record.js';

/** Primary-office branch code: a BIC8 is the BIC11 with XXX (ISO 9362). */
const PRIMARY_OFFICE = 'XXX';
const BIC8_LENGTH = 8;
/** One-character tokens match almost everything and are never looked up. */
export const TOKEN_MIN_LENGTH = 2;
/** NBB publishes 3-digit protocol-code ranges; a range wider than all 1,000 codes is malformed. */
const PROTOCOL_CODES = 1_000;

export function bic11Of(bic: string): string {
  return bic.length === BIC8_LENGTH ? `${bic}${PRIMARY_OFFICE}` : bic;
}

export function bic8Of(bic: string): string {
  return bic.slice(0, BIC8_LENGTH);
}

export function codeKey(countryCode: string, scheme: string, value: string): string {
  return `${countryCode}|${scheme}|${value}`;
}

export function ibanCodeKey(countryCode: string, bankCode: string): string {
  return `${countryCode}|${bankCode}`;
}

/** Schemes whose value is (or pads to) the bank code of the country's IBAN. */
const IBAN_SCHEMES = new Set([
  'de_blz',
  'at_blz',
  'ch_iid',
  'be_protocol',
  'es_entidad',
  'fr_code_banque',
  'lu_bank_code',
  'nl_bank_code',
]);
/** "<cc>_bank_code": the IBAN bank code of any other country, as schwifty's tables give it. */
const GENERIC_IBAN_SCHEME = /^[a-z]{2}_bank_code$/;
const BANK_RECORD_TYPES = new Set(['bank', 'branch', 'bank_code_range']);

/** '001-049' -> the 3-digit codes of the range, as NBB publishes them. */
function expandRange(range: string): string[] {
  const match = /^(\d{3})-(\d{3})$/.exec(range);
  if (match === null) return [];
  const from = Number(match[1]);
  const to = Number(match[2]);
  if (to < from || to - from >= PROTOCOL_CODES) return [];
  return Array.from({ length: to - from + 1 }, (_, offset) =>
    String(from + offset).padStart(3, '0'),
  );
}

/**
 * The bank codes this record stands for inside IBANs of its country, as published: numeric codes are
 * left-padded to the IBAN's bank-code width (a SIX IID 762 is 00762 in a CH IBAN), NBB ranges expand to
 * their codes. Codes of another width are not IBAN bank codes and are left out.
 */
export function ibanBankCodesOf(record: RegistryRecord): string[] {
  if (!BANK_RECORD_TYPES.has(record.record_type)) return [];
  const format = countryFormatOf(record.country_code);
  if (format === undefined) return [];
  const width = format.bankCode.length;
  const codes = new Set<string>();
  for (const code of record.domestic_codes) {
    const values =
      code.scheme === 'be_protocol_range'
        ? expandRange(code.value)
        : IBAN_SCHEMES.has(code.scheme) || GENERIC_IBAN_SCHEME.test(code.scheme)
          ? [code.value]
          : [];
    for (const value of values) {
      const padded = /^\d+$/.test(value) ? value.padStart(width, '0') : value;
      if (padded.length === width) codes.add(padded);
    }
  }
  return [...codes];
}

/** Folded words of a text (case, diacritics and punctuation removed), at least TOKEN_MIN_LENGTH long. */
export function tokensOf(text: string | null): string[] {
  if (text === null) return [];
  return foldText(text)
    .split(' ')
    .filter((token) => token.length >= TOKEN_MIN_LENGTH);
}

/** Search tokens: names, city and every identifier, so a query may be a name, a BIC, an LEI or a code. */
export function searchTokensOf(record: RegistryRecord): string[] {
  const tokens = new Set<string>([
    ...tokensOf(record.legal_name),
    ...tokensOf(record.short_name),
    ...tokensOf(record.address.city),
  ]);
  for (const identifier of [
    record.bic,
    record.lei,
    ...record.domestic_codes.map((code) => code.value),
  ]) {
    if (identifier !== null) for (const token of tokensOf(identifier)) tokens.add(token);
  }
  return [...tokens];
}

export interface IndexEntries {
  readonly bic11: string[];
  readonly bic8: string[];
  readonly lei: string[];
  readonly code: string[];
  readonly codeValue: string[];
  readonly ibanCode: string[];
  readonly token: string[];
}

const NO_ENTRIES: IndexEntries = {
  bic11: [],
  bic8: [],
  lei: [],
  code: [],
  codeValue: [],
  ibanCode: [],
  token: [],
};

export function indexEntriesOf(record: RegistryRecord): IndexEntries {
  // A placeholder row names no bank: nothing may find it by code, name or IBAN (its record key still reaches it).
  if (record.record_type === 'unassigned') return NO_ENTRIES;
  const codes = record.domestic_codes;
  return {
    bic11: record.bic === null ? [] : [bic11Of(record.bic)],
    bic8: record.bic === null ? [] : [bic8Of(record.bic)],
    lei: record.lei === null ? [] : [record.lei],
    code: [...new Set(codes.map((code) => codeKey(record.country_code, code.scheme, code.value)))],
    codeValue: [...new Set(codes.map((code) => code.value))],
    ibanCode: ibanBankCodesOf(record).map((code) => ibanCodeKey(record.country_code, code)),
    token: searchTokensOf(record),
  };
}
