/**
 * The REST validate answer written in one pass, without row objects: each row is `{"iban":"` + the input + the
 * bank's pre-encoded tail (everything after the IBAN: valid, country_code, bank_code, national_check and the bank
 * fields), copied with one Uint8Array#set. A tail is encoded once per bank x caller visibility x national-check
 * outcome from the row the general path builds for it (validationRow), so the bytes are the general path's by
 * construction. A valid row of a bank the registry does not know gets its codes written and a tail shared by all
 * such rows. Valid rows in paper form (lower case, spaces) are covered too: the input is echoed as typed. Rows the
 * tails do not cover (invalid IBANs) are the general path's rows, encoded with JSON.stringify.
 */
import { validateIban, type IbanVerdict } from '../../domain/iban/index.js';
import type { NationalContext } from '../../domain/iban/national/types.js';
import type { BankInfo } from '../../registry/bank-directory.js';
import {
  answerView,
  beginAnswer,
  writeAscii,
  writeByte,
  writeBytes,
  WrittenJson,
} from '../../render/answer-buffer.js';
import type { CallerView } from '../framework/op.js';
import { visibilityOf, type Visibility } from '../registry/bank-fields.js';
import type { ValidationRow } from './validation-row.js';

/** The directory reads of one list's rows: the national check's context, remembering the row's bank. */
export interface RowLookup extends NationalContext {
  bankOf(countryCode: string, bankCode: string): BankInfo | undefined;
}

/** The general path's row of an input and its verdict (validate.ts validationRow, bound to the caller and lookup). */
export type GeneralRow = (input: string, verdict: IbanVerdict) => ValidationRow;

const firstRowHead = Buffer.from('{"iban":"', 'latin1');
const nextRowHead = Buffer.from(',{"iban":"', 'latin1');
const openBracket = 0x5b;
const closeBracket = 0x5d;
const comma = 0x2c;

const visibilitySlot: Readonly<Record<Visibility, number>> = { shown: 0, locked: 1, spent: 2 };
const outcomeSlot: Readonly<Record<IbanVerdict['nationalCheck'], number>> = {
  passed: 0,
  failed: 1,
  not_applicable: 2,
  not_checked: 3,
};
const outcomes = Object.keys(outcomeSlot).length;

/**
 * Per bank, the tails by slot. The directory builds new BankInfo objects for every registry version (LmdbDirectory
 * drops its maps on a version change), so the tails of an older version are unreachable once it is: invalidation
 * is the key's identity, and a WeakMap frees them with the version's banks.
 */
const tailsByBank = new WeakMap<BankInfo, (Uint8Array | undefined)[]>();

function tailOf(info: BankInfo, slot: number, verdict: IbanVerdict, general: GeneralRow) {
  let tails = tailsByBank.get(info);
  if (tails === undefined) tailsByBank.set(info, (tails = []));
  return (tails[slot] ??= encodedTail(general('', verdict)));
}

/** The row's JSON after `{"iban":"` (the row is built with an empty IBAN): `","valid":true,...}`. */
function encodedTail(row: ValidationRow): Uint8Array {
  return Buffer.from(JSON.stringify(row).slice(firstRowHead.length), 'utf8');
}

/**
 * The bank of a row the tails cover: a valid row (its input then holds only A-Z, a-z, 0-9 and spaces, which JSON
 * writes as is: normalize.ts refuses every other character), and a bank the registry knows under exactly the
 * row's codes, or unknownBank.
 */
function coveredBank(verdict: IbanVerdict, lookup: RowLookup) {
  if (!verdict.valid) return notCovered;
  const { countryCode, bankCode } = verdict;
  if (countryCode === null || bankCode === null) return notCovered;
  const info = lookup.bankOf(countryCode, bankCode);
  if (info === undefined) return unknownBank;
  return info.bankCode === bankCode && info.countryCode === countryCode ? info : notCovered;
}
const notCovered = 0;
const unknownBank = 1;

/**
 * A valid row of a bank the registry does not know: its bytes after the bank code (`","national_check":...}`)
 * are the same for every such row of one visibility and outcome, so they are encoded once, from the first such
 * row, and the row's codes (A-Z, 0-9: they are the IBAN's) are written between. Undefined when the general
 * row's head is not the expected one (then the row stays with the general path).
 */
const unknownBankTails: (Uint8Array | undefined)[] = [];
const countryCodeHead = Buffer.from('","valid":true,"country_code":"', 'latin1');
const bankCodeHead = Buffer.from('","bank_code":"', 'latin1');
const nationalCheckKey = ',"national_check":';

function unknownBankTailOf(slot: number, verdict: IbanVerdict, general: GeneralRow) {
  const cached = unknownBankTails[slot];
  if (cached !== undefined) return cached;
  const json = JSON.stringify(general('', verdict));
  const at = json.indexOf(nationalCheckKey);
  const head = `{"iban":"","valid":true,"country_code":${JSON.stringify(verdict.countryCode)},"bank_code":${JSON.stringify(verdict.bankCode)}`;
  if (at < 0 || json.slice(0, at) !== head) return undefined;
  return (unknownBankTails[slot] = Buffer.from(`"${json.slice(at)}`, 'utf8'));
}

/** The country and bank code of a valid row (A-Z and 0-9, normalized), with the keys between them. */
function writeCodes(verdict: IbanVerdict): void {
  writeBytes(countryCodeHead);
  writeAscii(verdict.countryCode as string);
  writeBytes(bankCodeHead);
  writeAscii(verdict.bankCode as string);
}

function codesBytes(verdict: IbanVerdict): number {
  return (
    countryCodeHead.length +
    (verdict.countryCode?.length ?? 0) +
    bankCodeHead.length +
    (verdict.bankCode?.length ?? 0)
  );
}

/** A reveal is a row that showed a bank's BIC and name: invalid IBANs and unknown banks reveal nothing. */
export function revealsOf(row: ValidationRow): number {
  return row.bank_match === 'matched' && !row.premium_fields_locked ? 1 : 0;
}

/**
 * One validate answer: per row the input to echo (undefined when the row's bytes are whole) and the bytes after
 * it. It is written when the transport sends it (into the reused answer buffer), so nothing is copied in between.
 */
export class ValidateAnswer extends WrittenJson {
  constructor(
    private readonly echoed: readonly (string | undefined)[],
    /** Rows of banks the registry does not know: their verdict, whose codes are written before the tail. */
    private readonly codes: readonly (IbanVerdict | undefined)[],
    private readonly parts: readonly Uint8Array[],
    private readonly bytes: number,
    /** BIC reveals the answer made: the rows that showed a bank's BIC and name (usedCost charges these). */
    readonly revealed: number,
  ) {
    super();
  }

  jsonView(): Uint8Array {
    beginAnswer(this.bytes);
    writeByte(openBracket);
    for (let index = 0; index < this.parts.length; index++) {
      const input = this.echoed[index];
      if (input !== undefined) {
        writeBytes(index === 0 ? firstRowHead : nextRowHead);
        writeAscii(input);
        const codes = this.codes[index];
        if (codes !== undefined) writeCodes(codes);
      } else if (index > 0) writeByte(comma);
      writeBytes(this.parts[index] as Uint8Array);
    }
    writeByte(closeBracket);
    return answerView();
  }
}

/** The rows of validateList, in input order, as an answer that writes its own JSON. */
export function validateAnswer(
  ibans: readonly string[],
  caller: CallerView,
  lookup: RowLookup,
  general: GeneralRow,
): ValidateAnswer {
  const echoed = new Array<string | undefined>(ibans.length);
  const codes = new Array<IbanVerdict | undefined>(ibans.length);
  const parts = new Array<Uint8Array>(ibans.length);
  const visibility = visibilitySlot[visibilityOf(caller)] * outcomes;
  const reveals = visibility === visibilitySlot.shown ? 1 : 0;
  let bytes = ibans.length + 1;
  let revealed = 0;
  for (let index = 0; index < ibans.length; index++) {
    const input = ibans[index] as string;
    const verdict = validateIban(input, lookup);
    const info = coveredBank(verdict, lookup);
    const slot = visibility + outcomeSlot[verdict.nationalCheck];
    const unknownTail =
      info === unknownBank ? unknownBankTailOf(slot, verdict, general) : undefined;
    if (typeof info === 'object') {
      const tail = tailOf(info, slot, verdict, general);
      echoed[index] = input;
      parts[index] = tail;
      bytes += nextRowHead.length + input.length + tail.length;
      revealed += reveals;
    } else if (unknownTail !== undefined) {
      echoed[index] = input;
      codes[index] = verdict;
      parts[index] = unknownTail;
      bytes += nextRowHead.length + input.length + unknownTail.length + codesBytes(verdict);
    } else {
      const row = general(input, verdict);
      const whole = Buffer.from(JSON.stringify(row), 'utf8');
      parts[index] = whole;
      bytes += whole.length;
      revealed += revealsOf(row);
    }
  }
  return new ValidateAnswer(echoed, codes, parts, bytes, revealed);
}
