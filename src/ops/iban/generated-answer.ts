/**
 * The REST JSON answer of /generate and /bulk-dataset written in one pass, without row objects: per row the
 * strings the IBAN generator returned (IBAN, codes, account), written between key fragments encoded once, then
 * the row's bank fields as the shared bytes bank-fields.ts encodes once per bank x caller visibility (and so per
 * registry version: the directory builds new BankInfo objects for each), then the request's own fragments
 * (target, seed, a bulk row's profile). Every fragment is the JSON.stringify of a value the general path puts in
 * its row, so the bytes are the general path's by construction; test/ops/generated-answer.test.ts compares them.
 *
 * The generator's strings are IBAN characters (A-Z, a-z, 0-9, as the country formats and the bank codes of the
 * registry allow), which JSON writes as they are: writeAscii copies them without escaping.
 */
import type { GeneratedIban } from '../../domain/iban/index.js';
import type { BankInfo } from '../../registry/bank-directory.js';
import {
  answerView,
  beginAnswer,
  writeAscii,
  writeByte,
  writeBytes,
  WrittenJson,
} from '../../render/answer-buffer.js';
import type { RunContext } from '../framework/op.js';
import type { SharedBankFields } from '../registry/bank-fields.js';
import {
  drawRow,
  rowBankFields,
  targetFieldsOf,
  type DrawnRow,
  type RowPlan,
  type TargetFields,
} from './generated-row.js';

const utf8 = (text: string): Uint8Array => Buffer.from(text, 'utf8');

const rowHead = utf8('{"iban":"');
const bulkRowHead = utf8('{"index":');
const formattedKey = utf8(',"iban_formatted":"');
const bulkIbanKey = utf8('","iban":"');
const countryKey = utf8('","valid":true,"synthetic":true,"country_code":"');
const bankCodeKey = utf8('","bank_code":"');
const branchNull = utf8('","branch_code":null,"account_number":"');
const branchKey = utf8('","branch_code":"');
const accountKey = utf8('","account_number":"');
const nationalChecks: Readonly<Record<GeneratedIban['nationalCheck'], Uint8Array>> = {
  passed: utf8('","national_check":"passed"'),
  failed: utf8('","national_check":"failed"'),
  not_applicable: utf8('","national_check":"not_applicable"'),
  not_checked: utf8('","national_check":"not_checked"'),
};
const openBracket = 0x5b;
const closeBracket = 0x5d;
const closeBrace = 0x7d;
const comma = 0x2c;
const space = 0x20;
/** Print format: the IBAN in groups of this many characters, separated by one space (ISO 13616). */
const printGroup = 4;

/** A targeted row's fragments around its generated bank code: `,"custom_target":{...,"generated_bank_code":"` and `"},"coverage":{...}`. */
export interface TargetBytes {
  readonly head: Uint8Array;
  readonly tail: Uint8Array;
}

const generatedCodeKey = '"generated_bank_code":"';

/**
 * The target fragments of one bank, from the fields the general path builds (with an empty generated code, the
 * last key of custom_target: a key inside a string value would have its quotes escaped, so the first match is it).
 */
export function targetBytesOf(fields: TargetFields): TargetBytes {
  const json = JSON.stringify(fields);
  const at = json.indexOf(`${generatedCodeKey}"}`) + generatedCodeKey.length;
  return { head: utf8(`,${json.slice(1, at)}`), tail: utf8(json.slice(at, -1)) };
}

/** What a bulk answer adds to the rows: the envelope around them, row indexes and per-row profiles. */
export interface BulkShape {
  /** `{"success":true,...,"rows":` */
  readonly envelopeHead: Uint8Array;
  /** Index of the first row (the rows' indexes follow it). */
  readonly firstIndex: number;
  /** Per row, `,"profile":{...}` when the request asked for profiles. */
  readonly profiles: readonly Uint8Array[] | undefined;
}

/** The rows of one request, written when the transport sends them (into the reused answer buffer). */
export class GeneratedAnswer extends WrittenJson {
  private readonly rows: readonly DrawnRow[];
  /** Per row, its bank fields' JSON after the national check, without the row's closing brace. */
  private readonly bankTails: readonly Uint8Array[];
  /** Per row of a targeted request, the target fragments of its bank. */
  private readonly targets: readonly (TargetBytes | undefined)[] | undefined;
  private readonly bytes: number;

  constructor(
    drawn: DrawnRows,
    /** `,"seed":"..."` when the request carries a seed. */
    private readonly seed: Uint8Array | undefined,
    private readonly bulk: BulkShape | undefined,
  ) {
    super();
    this.rows = drawn.rows;
    this.bankTails = drawn.bankTails;
    this.targets = drawn.targets;
    this.bytes = this.upperBound();
  }

  jsonView(): Uint8Array {
    beginAnswer(this.bytes);
    const bulk = this.bulk;
    if (bulk !== undefined) writeBytes(bulk.envelopeHead);
    writeByte(openBracket);
    for (let index = 0; index < this.rows.length; index++) {
      if (index > 0) writeByte(comma);
      const generated = (this.rows[index] as DrawnRow).generated;
      if (bulk === undefined) {
        writeBytes(rowHead);
        writeAscii(generated.iban);
      } else writeBulkHead(bulk.firstIndex + index, generated.iban);
      writeCodes(generated);
      writeBytes(this.bankTails[index] as Uint8Array);
      const target = this.targets?.[index];
      if (target !== undefined) {
        writeBytes(target.head);
        writeAscii(generated.bankCode);
        writeBytes(target.tail);
      }
      if (this.seed !== undefined) writeBytes(this.seed);
      const profile = bulk?.profiles?.[index];
      if (profile !== undefined) writeBytes(profile);
      writeByte(closeBrace);
    }
    writeByte(closeBracket);
    if (bulk !== undefined) writeByte(closeBrace);
    return answerView();
  }

  /** Every fragment's length; the strings are ASCII, one byte per character. */
  private upperBound(): number {
    const bulk = this.bulk;
    const fixed = countryKey.length + bankCodeKey.length + branchNull.length + nationalBytesMax;
    const perRow =
      fixed +
      (bulk === undefined
        ? rowHead.length
        : bulkRowHead.length + formattedKey.length + bulkIbanKey.length + indexDigitsMax) +
      (this.seed?.length ?? 0) +
      2;
    let bytes = 2 + (bulk === undefined ? 0 : bulk.envelopeHead.length + 1);
    for (let index = 0; index < this.rows.length; index++) {
      const { generated } = this.rows[index] as DrawnRow;
      const target = this.targets?.[index];
      bytes +=
        perRow +
        generated.iban.length * (bulk === undefined ? 1 : 3) +
        generated.countryCode.length +
        generated.bankCode.length +
        (generated.branchCode?.length ?? 0) +
        branchKey.length +
        generated.accountNumber.length +
        (this.bankTails[index] as Uint8Array).length +
        (target === undefined
          ? 0
          : target.head.length + generated.bankCode.length + target.tail.length) +
        (bulk?.profiles?.[index]?.length ?? 0);
    }
    return bytes;
  }
}

const nationalBytesMax = Math.max(...Object.values(nationalChecks).map((bytes) => bytes.length));
/** Digits of the largest row index (rows are counted in safe integers). */
const indexDigitsMax = String(Number.MAX_SAFE_INTEGER).length;

/** `{"index":N,"iban_formatted":"DE89 3704 ...","iban":"DE89...` */
function writeBulkHead(rowIndex: number, iban: string): void {
  writeBytes(bulkRowHead);
  writeAscii(String(rowIndex));
  writeBytes(formattedKey);
  for (let at = 0; at < iban.length; at++) {
    if (at > 0 && at % printGroup === 0) writeByte(space);
    writeByte(iban.charCodeAt(at));
  }
  writeBytes(bulkIbanKey);
  writeAscii(iban);
}

/** From the end of the IBAN to the national check: `","valid":true,...,"national_check":"passed"`. */
function writeCodes(generated: GeneratedIban): void {
  writeBytes(countryKey);
  writeAscii(generated.countryCode);
  writeBytes(bankCodeKey);
  writeAscii(generated.bankCode);
  if (generated.branchCode === null) writeBytes(branchNull);
  else {
    writeBytes(branchKey);
    writeAscii(generated.branchCode);
    writeBytes(accountKey);
  }
  writeAscii(generated.accountNumber);
  writeBytes(nationalChecks[generated.nationalCheck]);
}

/**
 * A row's bank fields as bytes: bank-fields.ts encodes them once per bank x visibility as `,"swift_code":...}`
 * (JSON.stringify of the fields the row spreads); a generated row goes on after them, so without the brace.
 * Cached by the shared fields' identity, which lives as long as its bank.
 */
const bankTails = new WeakMap<SharedBankFields, Uint8Array>();

function bankTailOf(fields: SharedBankFields): Uint8Array {
  let tail = bankTails.get(fields);
  if (tail === undefined) {
    const bytes = fields.validationTail.bytes;
    bankTails.set(fields, (tail = bytes.subarray(0, bytes.length - 1)));
  }
  return tail;
}

/** `,"seed":"..."` for a seeded request. */
export function seedBytesOf(seed: string | undefined): Uint8Array | undefined {
  return seed === undefined ? undefined : utf8(`,"seed":${JSON.stringify(seed)}`);
}

/** The drawn rows of a request and their per-row fragments (rows rowStart + 0 .. count - 1). */
export interface DrawnRows {
  readonly rows: DrawnRow[];
  readonly bankTails: Uint8Array[];
  readonly targets: (TargetBytes | undefined)[] | undefined;
}

export function drawRows(
  plan: RowPlan,
  context: RunContext<'bank' | 'requestKey'>,
  count: number,
): DrawnRows {
  const rows = new Array<DrawnRow>(count);
  const tails = new Array<Uint8Array>(count);
  const target = plan.target;
  const targets = target === null ? undefined : new Array<TargetBytes | undefined>(count);
  // A target matches at most limits.targetCandidatesMax banks: their fragments are encoded once per request.
  const targetBytes = new Map<BankInfo, TargetBytes>();
  for (let offset = 0; offset < count; offset++) {
    const row = drawRow(plan, context, context.rowStart + offset);
    rows[offset] = row;
    tails[offset] = bankTailOf(rowBankFields(plan, context, row.bank));
    const bank = row.bank;
    if (targets === undefined || target === null || bank === undefined) continue;
    let bytes = targetBytes.get(bank);
    if (bytes === undefined)
      targetBytes.set(bank, (bytes = targetBytesOf(targetFieldsOf(target, bank, ''))));
    targets[offset] = bytes;
  }
  return { rows, bankTails: tails, targets };
}
