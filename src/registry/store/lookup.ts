/**
 * Identifier lookup over the registry indexes: BIC (11 exact, 8 = every office of the institution),
 * LEI, and national codes (bank codes, clearing codes, routing numbers, company numbers), with the type
 * given or recognised from the value. Only current records are found.
 */
import { AppError } from '../../errors.js';
import { isValidLei } from '../importers/gleif-common.js';
import { normalizeBic } from '../importers/common.js';
import { countryFormatOf } from '../../domain/iban/index.js';
import { bic11Of, ibanCodeKey } from './index-keys.js';
import type { RegistryReader } from './registry-reader.js';
import type { StoredRecord } from './types.js';

/** Types that name a kind of identifier; any scheme id (de_blz, us_aba, ch_iid, ...) is accepted as well. */
const KIND_TYPES = [
  'bic',
  'lei',
  'bank_code',
  'domestic_code',
  'clearing_code',
  'routing_number',
  'company_number',
] as const;
/** Schemes that hold company-register numbers. */
const COMPANY_SCHEMES = new Set(['at_firmenbuch']);
/** A national code qualified by its country: "DE:10050000". */
const QUALIFIED_CODE = /^([A-Z]{2}):(.+)$/;
const SCHEME_ID = /^[a-z]{2}_[a-z0-9_]+$/;

export interface LookupHit {
  /** The type the value was looked up as (given, or recognised from the value). */
  readonly type: string;
  readonly records: readonly StoredRecord[];
  /** More records matched than `limit`. */
  readonly truncated: boolean;
}

export function lookupTypes(): readonly string[] {
  return KIND_TYPES;
}

/** The identifier's type when the caller gave none: an LEI or a BIC by their shapes, otherwise a national code. */
export function recognisedType(value: string): string {
  const compact = value.replace(/\s+/g, '').toUpperCase();
  if (compact.length === 20 && isValidLei(compact)) return 'lei';
  if (normalizeBic(compact) !== null) return 'bic';
  return 'bank_code';
}

export function lookupIdentifier(
  store: RegistryReader,
  value: string,
  type: string | undefined,
  limit: number,
): LookupHit {
  const kind = (type ?? recognisedType(value)).toLowerCase();
  const collect = (
    ids: readonly number[],
    keep: (record: StoredRecord) => boolean = () => true,
  ): LookupHit => {
    const records = ids.flatMap((id) => store.record(id) ?? []).filter(keep);
    return { type: kind, records: records.slice(0, limit), truncated: records.length > limit };
  };
  // One more than the limit tells whether the list was cut.
  const wanted = limit + 1;
  const compact = value.replace(/\s+/g, '').toUpperCase();
  switch (kind) {
    case 'bic': {
      const bic = normalizeBic(compact);
      if (bic === null) return { type: kind, records: [], truncated: false };
      return collect(
        bic.length === 8
          ? store.idsAt('bic8', bic, wanted)
          : store.idsAt('bic11', bic11Of(bic), wanted),
      );
    }
    case 'lei':
      return collect(store.idsAt('lei', compact, wanted));
    case 'routing_number':
      return collect(store.idsAt('code', `US|us_aba|${value.trim()}`, wanted));
    case 'bank_code':
    case 'domestic_code':
    case 'clearing_code':
      return nationalCode(store, value.trim(), () => true, collect, wanted);
    case 'company_number':
      return nationalCode(
        store,
        value.trim(),
        (scheme) => COMPANY_SCHEMES.has(scheme),
        collect,
        wanted,
      );
    default:
      if (!SCHEME_ID.test(kind)) {
        throw new AppError(
          'invalid_argument',
          `identifier type "${type}" is not one of ${KIND_TYPES.join(', ')} or a scheme id such as de_blz, at_blz, ch_iid, us_aba`,
        );
      }
      return nationalCode(store, value.trim(), (scheme) => scheme === kind, collect, wanted);
  }
}

/** A code with or without its country ("DE:10050000" or "10050000"), in the schemes `schemeOk` allows. */
function nationalCode(
  store: RegistryReader,
  value: string,
  schemeOk: (scheme: string) => boolean,
  collect: (ids: readonly number[], keep?: (record: StoredRecord) => boolean) => LookupHit,
  wanted: number,
): LookupHit {
  const qualified = QUALIFIED_CODE.exec(value);
  const country = qualified?.[1];
  const code = qualified?.[2] ?? value;
  const keep = (record: StoredRecord): boolean =>
    (country === undefined || record.country_code === country) &&
    record.domestic_codes.some((c) => c.value === code && schemeOk(c.scheme));
  // The value index holds every code value once per record; country and scheme are checked on the record.
  const ids: number[] = [];
  for (const id of store.idsOf('codeValue', code)) {
    const record = store.record(id);
    if (record !== undefined && keep(record)) ids.push(id);
    if (ids.length >= wanted) break;
  }
  if (country !== undefined && ids.length < wanted)
    addIbanBankCodes(store, country, code, schemeOk, ids, wanted);
  return collect(ids);
}

/**
 * A code qualified by its country is also the bank code of that country's IBANs, as validation reads it: an NBB
 * range holds "BE:539", a SIX IID 762 is "CH:00762" in an IBAN. The records found that way join the exact ones.
 */
function addIbanBankCodes(
  store: RegistryReader,
  country: string,
  code: string,
  schemeOk: (scheme: string) => boolean,
  ids: number[],
  wanted: number,
): void {
  const format = countryFormatOf(country);
  if (format === undefined) return;
  const width = format.bankCode.length;
  const padded =
    /^\d+$/.test(code) && code.length < width ? code.padStart(width, '0') : code.toUpperCase();
  for (const id of store.idsOf('ibanCode', ibanCodeKey(country, padded))) {
    if (ids.length >= wanted) return;
    const record = store.record(id);
    if (
      record === undefined ||
      ids.includes(id) ||
      !record.domestic_codes.some(
        (c) => schemeOk(c.scheme) || schemeOk(c.scheme.replace(/_range$/, '')),
      )
    )
      continue;
    ids.push(id);
  }
}
