/**
 * The real banks generation draws bank codes from, per country. Pure.
 *
 * Live customer codes only: a code a customer account can have today. A code is not live when a record of it
 * (any source) names a successor (the publisher says the code moved: Bundesbank field 13, SIX "IID neu") or
 * announces its deletion (Bundesbank field 12 "Bankleitzahllöschung" = 1); when its Bundesbank main record
 * (field 2 "Merkmal" = 1) carries change flag D (field 11: deleted with effect from the release's validity date;
 * a D on a Merkmal-2 record deletes only that branch record, as the Bundesbank's download page explains); when
 * its Bundesbank main record is an internal clearing or settlement code: the publisher's name marks it so
 * ("ITGK", e.g. Commerzbank "PCC DCC-ITGK"; "Settlement"; "Gf"/"Geschäftsfeld", the additional code of one
 * business field that the Merkblatt Bankleitzahlendatei describes) and it has no PAN institution number
 * (field 7: the code issues no girocard, so no customer current account sits under it); or when a newer snapshot
 * removed it (the registry's change events; see RemovedCodes). Each code counts once, as its main record: branch
 * records (Merkmal 2) add no code, so a bank with hundreds of branches weighs what a one-office bank weighs.
 *
 * A code must fit the country's IBAN bank code field: the iban-to-bic dataset for Spain, for one, keys three
 * BICs by a tax id (NIF such as "A79192258") rather than a four-digit entity code, and a row drawn on one of them
 * could not be generated. A generated IBAN must also pass the bank's own national check, so where the check depends on a per-bank
 * method (Germany: the Bundesbank method of the bank code) only banks whose method the engine implements
 * qualify; and where the registry knows cities for a country, only banks with a city, so a revealed row always
 * says where its bank is.
 */
import { bankCodeFits, countryFormatOf } from '../domain/iban/index.js';
import { germanMethods } from '../domain/iban/national/de/index.js';
import type { BankInfo } from './bank-directory.js';
import type { RegistryRecord } from './record.js';

/** Countries whose national check reads the bank's published method, with the methods the engine implements. */
const METHOD_COUNTRIES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['DE', new Set(germanMethods)],
]);

const BUNDESBANK = 'bundesbank-blz';
/** Name markers of internal clearing, settlement and business-field codes in the Bankleitzahlendatei. */
const INTERNAL_NAME = /ITGK|\bSettlement\b|\bG[fF]\b|Geschäftsfeld/;

/** Why a record makes its code not live, or null (see the module comment). */
export function deadReason(record: RegistryRecord): string | null {
  if (record.successor !== null) return 'successor';
  if (record.deletion_planned) return 'deletion_planned';
  if (record.source_id !== BUNDESBANK || record.record_type !== 'bank') return null;
  if (record.fields.aenderungskennzeichen === 'D') return 'deleted';
  const name = record.legal_name ?? '';
  if (INTERNAL_NAME.test(name) && (record.fields.pan ?? '') === '') return 'internal';
  return null;
}

/** A code's records say it is live (no record of it has a deadReason). */
export function recordsLive(records: readonly RegistryRecord[]): boolean {
  return records.every((record) => deadReason(record) === null);
}

/**
 * Codes a snapshot removed (main records only): 'CC:code' -> the snapshot date of the removal. A code stays
 * removed unless a source whose current snapshot is as new as that date or newer still lists it.
 */
export type RemovedCodes = ReadonlyMap<string, string>;

export function removedKey(countryCode: string, bankCode: string): string {
  return `${countryCode}:${bankCode}`;
}

/** Whether the removal of a code is overruled by a newer source that lists it (dates ISO, null = unknown). */
export function stillListed(removedOn: string, listedOn: readonly (string | null)[]): boolean {
  return listedOn.some((date) => date !== null && date >= removedOn);
}

export function generationCandidates(
  countryCode: string,
  banks: readonly BankInfo[],
): readonly BankInfo[] {
  const methods = METHOD_COUNTRIES.get(countryCode);
  const format = countryFormatOf(countryCode);
  const live = banks.filter(
    (bank) => bank.live && format !== undefined && bankCodeFits(format, bank.bankCode),
  );
  const checkable =
    methods === undefined
      ? live
      : live.filter(
          (bank) => bank.accountCheckMethod !== null && methods.has(bank.accountCheckMethod),
        );
  const located = checkable.filter((bank) => bank.city !== null);
  return located.length > 0 ? located : checkable;
}
