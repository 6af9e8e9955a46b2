/**
 * The REST validate answer written in one pass, without row objects: each row is `{"iban":"` + the input + the
 * bank's pre-encoded tail (everything after the IBAN: valid, country_code, bank_code, national_check and the bank
 * fields, validate-tails.ts), copied with one Uint8Array#set.
 *
 * An input in electronic form takes the fused pass: scanElectronic reads it from its char codes (country, layout,
 * MOD 97-10, no string sliced, no verdict built), the bank comes from the directory by number (bankIds), the
 * national check runs in place with that bank's method, and the row is the input and the cached tail. Every
 * other input (paper form, lower case, invalid IBANs, a tail not encoded yet) takes validateIban: a valid row is
 * still written from a tail (a paper-form input is echoed as typed: validation lets through only A-Z, a-z, 0-9 and
 * spaces, which JSON writes as is), an invalid one is the general path's row, encoded with JSON.stringify.
 */
import {
  bankCodeSpanOf,
  ElectronicScan,
  nationalOutcomeOf,
  scanElectronic,
  validateIban,
  type IbanVerdict,
} from '../../domain/iban/index.js';
import type { NationalContext } from '../../domain/iban/national/types.js';
import type { BankDirectory, BankIds, BankInfo } from '../../registry/bank-directory.js';
import {
  answerView,
  beginAnswer,
  writeAscii,
  writeAsciiRange,
  writeByte,
  writeBytes,
  WrittenJson,
} from '../../render/answer-buffer.js';
import type { CallerView } from '../framework/op.js';
import type { ValidationRow } from './validation-row.js';
import {
  bankCodeHead,
  cachedUnknownBankTail,
  countryCodeHead,
  firstRowHead,
  nextRowHead,
  outcomeSlot,
  showsBanks,
  slotsPerBank,
  tailOf,
  tailTableOf,
  unknownBankTailOf,
  visibilitySlotOf,
  type GeneralRow,
} from './validate-tails.js';

export type { GeneralRow } from './validate-tails.js';

/** The directory reads of one list's rows: the national check's context, remembering the row's bank. */
export interface RowLookup extends NationalContext, Pick<BankDirectory, 'bankIds'> {
  bankOf(countryCode: string, bankCode: string): BankInfo | undefined;
}

const openBracket = 0x5b;
const closeBracket = 0x5d;
const comma = 0x2c;

/** How a row is written: its whole JSON, or the input, maybe its codes, then a tail. */
const formWhole = 0;
const formTail = 1;
/** The codes of a verdict (a paper-form input of an unknown bank). */
const formVerdictCodes = 2;
/** The codes read from the input itself (an electronic-form input of an unknown bank). */
const formScannedCodes = 3;

/**
 * The national check's context on the fused pass: the bank found by key answers for its own code (the national
 * rules ask only about the row's bank); any other question goes to the row lookup.
 */
class ScannedBank implements NationalContext {
  info: BankInfo | undefined = undefined;

  constructor(private readonly lookup: NationalContext) {}

  accountCheckMethod(countryCode: string, bankCode: string): string | undefined {
    const info = this.info;
    if (info !== undefined && info.bankCode === bankCode && info.countryCode === countryCode)
      return info.accountCheckMethod ?? undefined;
    return this.lookup.accountCheckMethod(countryCode, bankCode);
  }
}

/** A reveal is a row that showed a bank's BIC and name: invalid IBANs and unknown banks reveal nothing. */
export function revealsOf(row: ValidationRow): number {
  return row.bank_match === 'matched' && !row.premium_fields_locked ? 1 : 0;
}

/**
 * One validate answer: per row its form and the bytes after the input (or the whole row). It is written when the
 * transport sends it (into the reused answer buffer), so nothing is copied in between.
 */
export class ValidateAnswer extends WrittenJson {
  constructor(
    private readonly inputs: readonly string[],
    private readonly forms: Uint8Array,
    /** Per row of formScannedCodes, its country's index in countryFormats. */
    private readonly countries: Uint8Array,
    /** Per row of formVerdictCodes, the verdict whose codes are written. */
    private readonly verdicts: readonly (IbanVerdict | undefined)[],
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
      const form = this.forms[index];
      if (form === formWhole) {
        if (index > 0) writeByte(comma);
      } else {
        const input = this.inputs[index] as string;
        writeBytes(index === 0 ? firstRowHead : nextRowHead);
        writeAscii(input);
        if (form === formScannedCodes) writeScannedCodes(input, this.countries[index] as number);
        else if (form === formVerdictCodes) writeVerdictCodes(this.verdicts[index] as IbanVerdict);
      }
      writeBytes(this.parts[index] as Uint8Array);
    }
    writeByte(closeBracket);
    return answerView();
  }
}

/** The country and bank code of a valid row (A-Z and 0-9, normalized), with the keys between them. */
function writeVerdictCodes(verdict: IbanVerdict): void {
  writeBytes(countryCodeHead);
  writeAscii(verdict.countryCode as string);
  writeBytes(bankCodeHead);
  writeAscii(verdict.bankCode as string);
}

/** The same from an electronic-form IBAN: its first two characters and its bank-code span. */
function writeScannedCodes(input: string, country: number): void {
  const [start, end] = bankCodeSpanOf(country);
  writeBytes(countryCodeHead);
  writeAsciiRange(input, 0, 2);
  writeBytes(bankCodeHead);
  writeAsciiRange(input, start, end);
}

/** Bytes of the codes written between an input and its unknown-bank tail. */
const codesHeadBytes = countryCodeHead.length + bankCodeHead.length;

/** The answer being built: per-row forms and parts, the byte bound and the reveals. */
class AnswerRows {
  readonly forms: Uint8Array;
  readonly countries: Uint8Array;
  readonly verdicts: (IbanVerdict | undefined)[];
  readonly parts: Uint8Array[];
  bytes: number;
  revealed = 0;

  constructor(rows: number) {
    this.forms = new Uint8Array(rows);
    this.countries = new Uint8Array(rows);
    this.verdicts = new Array<IbanVerdict | undefined>(rows);
    this.parts = new Array<Uint8Array>(rows);
    // The brackets and one comma or head per row are bounded by the heads counted per row below.
    this.bytes = rows + 1;
  }
}

/** What the fused pass reads for every row of one answer. */
interface FusedPass {
  readonly scan: ElectronicScan;
  readonly scanned: ScannedBank;
  readonly lookup: RowLookup;
  readonly ids: BankIds;
  /** The tails of `ids`: index id * slotsPerBank + slot. */
  readonly tails: (Uint8Array | undefined)[];
  readonly visibility: number;
  readonly general: GeneralRow;
}

/**
 * The fused pass over one row; false when the row is not covered (not in electronic form, invalid), leaving it to
 * validateIban. Nothing is recorded for a row that is not covered.
 */
function fusedRow(rows: AnswerRows, index: number, input: string, pass: FusedPass): boolean {
  const scan = pass.scan;
  if (!scanElectronic(input, scan)) return false;
  const id = pass.ids.idOf(scan.country, scan.bankKey);
  const info = id < 0 ? undefined : pass.ids.bankOf(id);
  pass.scanned.info = info;
  const outcome = nationalOutcomeOf(input, scan, pass.scanned);
  if (outcome === 'failed') return false;
  const slot = pass.visibility + outcomeSlot(outcome);
  const head = nextRowHead.length + input.length;
  if (info !== undefined) {
    const at = id * slotsPerBank + slot;
    const tail = pass.tails[at] ?? firstTail(input, info, at, slot, pass);
    if (tail === undefined) return false;
    rows.forms[index] = formTail;
    rows.parts[index] = tail;
    rows.bytes += head + tail.length;
    if (showsBanks(pass.visibility)) rows.revealed++;
    return true;
  }
  const tail = cachedUnknownBankTail(slot);
  if (tail === undefined) return false;
  const [start, end] = bankCodeSpanOf(scan.country);
  rows.forms[index] = formScannedCodes;
  rows.countries[index] = scan.country;
  rows.parts[index] = tail;
  rows.bytes += head + codesHeadBytes + 2 + end - start + tail.length;
  return true;
}

/**
 * A bank's tail the first time a slot of it is asked for by id: the one the verdict path encodes (tailOf), kept at
 * `at`. The table is filled up to `at` first: an index far past its end would turn it into a dictionary.
 */
function firstTail(
  input: string,
  info: BankInfo,
  at: number,
  slot: number,
  pass: FusedPass,
): Uint8Array | undefined {
  const tail = tailOf(info, slot, validateIban(input, pass.lookup), pass.general);
  if (tail === undefined) return undefined;
  const tails = pass.tails;
  while (tails.length < at) tails.push(undefined);
  tails[at] = tail;
  return tail;
}

/** A row through validateIban: a tail where one covers it (encoded now if it was not), else the general row. */
function verdictRow(
  rows: AnswerRows,
  index: number,
  input: string,
  lookup: RowLookup,
  visibility: number,
  general: GeneralRow,
): void {
  const verdict = validateIban(input, lookup);
  const head = nextRowHead.length + input.length;
  const { countryCode, bankCode } = verdict;
  if (verdict.valid && countryCode !== null && bankCode !== null) {
    const slot = visibility + outcomeSlot(verdict.nationalCheck);
    const info = lookup.bankOf(countryCode, bankCode);
    const tail = info === undefined ? undefined : tailOf(info, slot, verdict, general);
    if (tail !== undefined) {
      rows.forms[index] = formTail;
      rows.parts[index] = tail;
      rows.bytes += head + tail.length;
      if (showsBanks(visibility)) rows.revealed++;
      return;
    }
    const unknownTail = info === undefined ? unknownBankTailOf(slot, verdict, general) : undefined;
    if (unknownTail !== undefined) {
      rows.forms[index] = formVerdictCodes;
      rows.verdicts[index] = verdict;
      rows.parts[index] = unknownTail;
      rows.bytes +=
        head + codesHeadBytes + countryCode.length + bankCode.length + unknownTail.length;
      return;
    }
  }
  const row = general(input, verdict);
  const whole = Buffer.from(JSON.stringify(row), 'utf8');
  rows.forms[index] = formWhole;
  rows.parts[index] = whole;
  rows.bytes += whole.length;
  rows.revealed += revealsOf(row);
}

/** One scan object for every answer: a pass is synchronous and reads the scan before the next row's. */
const sharedScan = new ElectronicScan();

/** The rows of validateList, in input order, as an answer that writes its own JSON. */
export function validateAnswer(
  ibans: readonly string[],
  caller: CallerView,
  lookup: RowLookup,
  general: GeneralRow,
): ValidateAnswer {
  const rows = new AnswerRows(ibans.length);
  const visibility = visibilitySlotOf(caller);
  const ids = lookup.bankIds();
  const pass: FusedPass = {
    scan: sharedScan,
    scanned: new ScannedBank(lookup),
    lookup,
    ids,
    tails: tailTableOf(ids),
    visibility,
    general,
  };
  for (let index = 0; index < ibans.length; index++) {
    const input = ibans[index] as string;
    if (!fusedRow(rows, index, input, pass))
      verdictRow(rows, index, input, lookup, visibility, general);
  }
  return new ValidateAnswer(
    ibans,
    rows.forms,
    rows.countries,
    rows.verdicts,
    rows.parts,
    rows.bytes,
    rows.revealed,
  );
}
