/**
 * The REST validate answer written in one pass, without row objects: each row is `{"iban":"` + the input + the
 * bank's pre-encoded tail (everything after the IBAN: valid, country_code, bank_code, national_check and the bank
 * fields), copied with one Uint8Array#set. A tail is encoded once per bank x caller visibility x national-check
 * outcome from the row the general path builds for it (validationRow), so the bytes are the general path's by
 * construction. Rows the tails do not cover (invalid IBANs, paper form, an unknown bank) are the general path's
 * rows, encoded with JSON.stringify.
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
import type { ValidationRow } from './validate.js';

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
 * The bank of a row the tails cover: valid, typed in electronic form (so the input is the normalized IBAN,
 * A-Z and 0-9 only, which JSON writes as is), and a bank the registry knows under exactly the row's codes.
 */
function coveredBank(input: string, verdict: IbanVerdict, lookup: RowLookup) {
  if (!verdict.valid || input !== verdict.normalized) return undefined;
  const { countryCode, bankCode } = verdict;
  if (countryCode === null || bankCode === null) return undefined;
  const info = lookup.bankOf(countryCode, bankCode);
  return info !== undefined && info.bankCode === bankCode && info.countryCode === countryCode
    ? info
    : undefined;
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
    private readonly parts: readonly Uint8Array[],
    private readonly bytes: number,
    /** BIC reveals the answer made: the rows that showed a bank's BIC and name (usedCost charges these). */
    readonly revealed: number,
  ) {
    super();
  }

  get rows(): number {
    return this.parts.length;
  }

  jsonView(): Uint8Array {
    beginAnswer(this.bytes);
    writeByte(openBracket);
    for (let index = 0; index < this.parts.length; index++) {
      const input = this.echoed[index];
      if (input !== undefined) {
        writeBytes(index === 0 ? firstRowHead : nextRowHead);
        writeAscii(input);
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
  const parts = new Array<Uint8Array>(ibans.length);
  const visibility = visibilitySlot[visibilityOf(caller)] * outcomes;
  const reveals = visibility === visibilitySlot.shown ? 1 : 0;
  let bytes = ibans.length + 1;
  let revealed = 0;
  for (let index = 0; index < ibans.length; index++) {
    const input = ibans[index] as string;
    const verdict = validateIban(input, lookup);
    const info = coveredBank(input, verdict, lookup);
    if (info !== undefined) {
      const tail = tailOf(info, visibility + outcomeSlot[verdict.nationalCheck], verdict, general);
      echoed[index] = input;
      parts[index] = tail;
      bytes += nextRowHead.length + input.length + tail.length;
      revealed += reveals;
    } else {
      const row = general(input, verdict);
      const whole = Buffer.from(JSON.stringify(row), 'utf8');
      parts[index] = whole;
      bytes += whole.length;
      revealed += revealsOf(row);
    }
  }
  return new ValidateAnswer(echoed, parts, bytes, revealed);
}
