import { AppError } from '../../errors.js';
import { requestKeyOf, rowRng } from '../rng.js';
import { completeNationalCheckDigits, nationalCheck, nationalRuleOf } from './national/index.js';
import type { NationalContext } from './national/types.js';
import { bbanKinds, type CountryFormat, type Span } from './countries.js';
import {
  assembleIban,
  assertComponentsKept,
  checkComponent,
  placeComponents,
  spanSpec,
  type GeneratedIban,
  type PlacedComponent,
} from './generate.js';
import { normalizeIbanInput } from './normalize.js';

export interface IbanComponents {
  readonly bankCode?: string;
  readonly branchCode?: string;
  readonly accountNumber: string;
  readonly nationalCheckDigits?: string;
}

/** Placeholder for positions the national rule computes; it must fit each position's kind. */
const placeholder = { n: '0', a: 'A', c: '0' } as const;
const nationalDigitsLabel = 'national check digits';

/**
 * The IBAN of given domestic components. A numeric account number shorter than its span is
 * left-padded with zeros (never truncated). National check digits the caller leaves out are
 * computed by the country's rule; the rng it gets is fixed by the BBAN draft, so the answer is
 * a pure function of the components. AppError('invalid_argument') when the components cannot
 * form a valid BBAN.
 */
export function calculateIban(
  format: CountryFormat,
  components: IbanComponents,
  context: NationalContext,
): GeneratedIban {
  const placed = placedComponents(format, components);
  const covered = coveredPositions(format, placed);
  const chars = bbanKinds(format).map((kind) => placeholder[kind]);
  const draft = placeComponents(format, chars, placed);
  let bban = draft;
  if (covered < format.bbanLength) {
    if (nationalRuleOf(format.code) === undefined) {
      throw new AppError(
        'invalid_argument',
        `${format.code} national check digits are not computed here (no published rule is implemented): ` +
          `pass nationalCheckDigits (${nationalDigitsSpec(format)})`,
      );
    }
    const rng = rowRng(requestKeyOf('calculate', draft), 0);
    bban = completeNationalCheckDigits(format.code, draft, rng, context);
    assertComponentsKept(format, bban, placed);
  }
  if (nationalCheck(format.code, bban, context) === 'failed')
    throw nationalFailure(format, placed, context);
  return assembleIban(format, bban, context);
}

/**
 * Where the BBAN puts the branch code right after the bank code (FR banque + guichet, IT ABI + CAB, GB),
 * people often type both as one code: a bank code of exactly their joint length is split at the registry
 * positions (schwifty does the same). A branch code given as well must then say the same thing.
 */
function splitJointBankCode(format: CountryFormat, components: IbanComponents): IbanComponents {
  const bank = format.bankCode;
  const branch = format.branchCode;
  if (
    components.bankCode === undefined ||
    branch === null ||
    branch.offset !== bank.offset + bank.length
  )
    return components;
  const joint = normalizeIbanInput(components.bankCode);
  if (joint.length !== bank.length + branch.length) return components;
  const branchCode = joint.slice(bank.length);
  if (
    components.branchCode !== undefined &&
    normalizeIbanInput(components.branchCode) !== branchCode
  ) {
    throw new AppError(
      'invalid_argument',
      `${format.code} bank code ${components.bankCode} includes the branch code ${branchCode}, but branch_code says ${components.branchCode}`,
    );
  }
  return { ...components, bankCode: joint.slice(0, bank.length), branchCode };
}

function placedComponents(format: CountryFormat, given: IbanComponents): PlacedComponent[] {
  const placed: PlacedComponent[] = [];
  const components = splitJointBankCode(format, given);
  if (components.bankCode === undefined) {
    throw new AppError(
      'invalid_argument',
      `${format.code} needs a bank code (${spanSpec(format, format.bankCode)})`,
    );
  }
  placed.push(checkComponent(format, format.bankCode, components.bankCode, 'bank code'));
  if (format.branchCode === null && components.branchCode !== undefined) {
    throw new AppError('invalid_argument', `${format.code} IBANs carry no branch code`);
  }
  if (format.branchCode !== null) {
    if (components.branchCode === undefined) {
      const spec = spanSpec(format, format.branchCode);
      throw new AppError('invalid_argument', `${format.code} needs a branch code (${spec})`);
    }
    placed.push(checkComponent(format, format.branchCode, components.branchCode, 'branch code'));
  }
  const account = padAccount(format, components.accountNumber);
  placed.push(checkComponent(format, format.accountNumber, account, 'account number'));
  if (components.nationalCheckDigits !== undefined) {
    if (format.nationalCheckDigits === null) {
      throw new AppError(
        'invalid_argument',
        `${format.code} BBANs have no separate national check digits`,
      );
    }
    const digits = components.nationalCheckDigits;
    placed.push(checkComponent(format, format.nationalCheckDigits, digits, nationalDigitsLabel));
  }
  return placed;
}

/** Left-pads an all-digit account number with zeros when every padded position takes a digit. */
function padAccount(format: CountryFormat, raw: string): string {
  const value = normalizeIbanInput(raw);
  const span = format.accountNumber;
  if (value.length === 0 || value.length >= span.length) return value;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 48 || code > 57) return value;
  }
  const kinds = bbanKinds(format).slice(span.offset, span.offset + span.length - value.length);
  return kinds.every((kind) => kind !== 'a') ? value.padStart(span.length, '0') : value;
}

function coveredPositions(format: CountryFormat, placed: readonly PlacedComponent[]): number {
  const covered = new Uint8Array(format.bbanLength);
  for (const { span } of placed) covered.fill(1, span.offset, span.offset + span.length);
  return covered.reduce((sum, flag) => sum + flag, 0);
}

function nationalDigitsSpec(format: CountryFormat): string {
  const span: Span | null = format.nationalCheckDigits;
  return span === null ? 'none' : spanSpec(format, span);
}

/** Says which national digits the components would need, when they can be computed. */
function nationalFailure(
  format: CountryFormat,
  placed: readonly PlacedComponent[],
  context: NationalContext,
): AppError {
  const rule = nationalRuleOf(format.code)?.rule ?? 'national rule';
  const given = placed.find((component) => component.label === nationalDigitsLabel);
  if (given === undefined) {
    return new AppError(
      'invalid_argument',
      `${format.code} components fail the national check (${rule})`,
    );
  }
  const others = placed.filter((component) => component !== given);
  const chars = bbanKinds(format).map((kind) => placeholder[kind]);
  const draft = placeComponents(format, chars, others);
  const rng = rowRng(requestKeyOf('calculate', draft), 0);
  const completed = completeNationalCheckDigits(format.code, draft, rng, context);
  const { offset, length } = given.span;
  const expected = completed.slice(offset, offset + length);
  const keptOthers = others.every(
    (c) => completed.slice(c.span.offset, c.span.offset + c.span.length) === c.value,
  );
  const hint = keptOthers ? `, expected ${expected}` : '';
  return new AppError(
    'invalid_argument',
    `${format.code} national check digits ${given.value} are wrong for these components (${rule})${hint}`,
  );
}
