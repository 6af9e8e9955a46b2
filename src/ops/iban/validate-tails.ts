/**
 * The pre-encoded tails of the written validate answer (validate-answer.ts): a row's bytes after its IBAN, encoded
 * once from the row the general path builds (validationRow), so the written bytes are the general path's by
 * construction. A tail is kept per bank x caller visibility x national-check outcome (its slot); a valid row of a
 * bank the registry does not know has its codes written before a tail shared by every such row of a slot.
 */
import type { IbanVerdict } from '../../domain/iban/index.js';
import type { BankIds, BankInfo } from '../../registry/bank-directory.js';
import type { CallerView } from '../framework/op.js';
import { visibilityOf } from '../registry/bank-fields.js';
import type { ValidationRow } from './validation-row.js';

/** The general path's row of an input and its verdict (validate.ts validationRow, bound to the caller and lookup). */
export type GeneralRow = (input: string, verdict: IbanVerdict) => ValidationRow;

export const firstRowHead = Buffer.from('{"iban":"', 'latin1');
export const nextRowHead = Buffer.from(',{"iban":"', 'latin1');

const outcomes = 4;
const visibilitySlots = { shown: 0, locked: 1, spent: 2 } as const;
/** Slots per bank: every visibility x outcome. */
export const slotsPerBank = 3 * outcomes;

/** The first slot of a caller's visibility; a row's slot adds its outcome (outcomeSlot). */
export function visibilitySlotOf(caller: CallerView): number {
  return visibilitySlots[visibilityOf(caller)] * outcomes;
}

/** A paid caller whose reveals are not spent is shown banks: each such row is a reveal. */
export function showsBanks(visibilitySlot: number): boolean {
  return visibilitySlot === visibilitySlots.shown * outcomes;
}

/** A national-check outcome's place among a visibility's slots (a branch, not a keyed property read). */
export function outcomeSlot(outcome: IbanVerdict['nationalCheck']): number {
  return outcome === 'passed' ? 0 : outcome === 'failed' ? 1 : outcome === 'not_applicable' ? 2 : 3;
}

/**
 * Per bank, the tails by slot, or null for a bank whose own codes are not the row's (its tails would not be the
 * general path's bytes; no directory returns one today, the check keeps the bytes right if one ever does). The
 * directory builds new BankInfo objects for every registry version (LmdbDirectory drops its maps on a version
 * change), so the tails of an older version are unreachable once it is: invalidation is the key's identity, and
 * a WeakMap frees them with the version's banks.
 */
const tailsByBank = new WeakMap<BankInfo, (Uint8Array | undefined)[] | null>();

/**
 * The same tails by bank id (BankDirectory.bankIds) x slot, one table per numbering: the hot path reads an array
 * where a WeakMap read per row cost about as much as the row's bank lookup (bench/validate-pass.ts). A numbering
 * belongs to one registry version, so its table goes with it.
 */
const tailTables = new WeakMap<BankIds, (Uint8Array | undefined)[]>();

/** The tails of a numbering, index id * slotsPerBank + slot (read once per answer). */
export function tailTableOf(ids: BankIds): (Uint8Array | undefined)[] {
  let table = tailTables.get(ids);
  if (table === undefined) tailTables.set(ids, (table = []));
  return table;
}

/**
 * The tail of a bank and slot, encoded from the general row of this verdict when not cached yet; undefined when
 * the bank is not the verdict's (the row then stays with the general path).
 */
export function tailOf(
  info: BankInfo,
  slot: number,
  verdict: IbanVerdict,
  general: GeneralRow,
): Uint8Array | undefined {
  let tails = tailsByBank.get(info);
  if (tails === null) return undefined;
  if (tails === undefined) {
    if (info.bankCode !== verdict.bankCode || info.countryCode !== verdict.countryCode) {
      tailsByBank.set(info, null);
      return undefined;
    }
    tailsByBank.set(info, (tails = []));
  }
  return (tails[slot] ??= encodedTail(general('', verdict)));
}

/** The row's JSON after `{"iban":"` (the row is built with an empty IBAN): `","valid":true,...}`. */
function encodedTail(row: ValidationRow): Uint8Array {
  return Buffer.from(JSON.stringify(row).slice(firstRowHead.length), 'utf8');
}

/**
 * A valid row of a bank the registry does not know: its bytes after the bank code (`","national_check":...}`)
 * are the same for every such row of one visibility and outcome, so they are encoded once, from the first such
 * row, and the row's codes (A-Z, 0-9: they are the IBAN's) are written between. Undefined when the general
 * row's head is not the expected one (then the row stays with the general path).
 */
const unknownBankTails: (Uint8Array | undefined)[] = [];
export const countryCodeHead = Buffer.from('","valid":true,"country_code":"', 'latin1');
export const bankCodeHead = Buffer.from('","bank_code":"', 'latin1');
const nationalCheckKey = ',"national_check":';

export function cachedUnknownBankTail(slot: number): Uint8Array | undefined {
  return unknownBankTails[slot];
}

export function unknownBankTailOf(
  slot: number,
  verdict: IbanVerdict,
  general: GeneralRow,
): Uint8Array | undefined {
  const cached = unknownBankTails[slot];
  if (cached !== undefined) return cached;
  const json = JSON.stringify(general('', verdict));
  const at = json.indexOf(nationalCheckKey);
  const head = `{"iban":"","valid":true,"country_code":${JSON.stringify(verdict.countryCode)},"bank_code":${JSON.stringify(verdict.bankCode)}`;
  if (at < 0 || json.slice(0, at) !== head) return undefined;
  return (unknownBankTails[slot] = Buffer.from(`"${json.slice(at)}`, 'utf8'));
}
