import { rngBelow, rngPick, type Rng } from '../../rng.js';
import {
  bbanKinds,
  countryFormats,
  type CharKind,
  type CountryFormat,
  type Span,
} from '../countries.js';
import { swiftRegistryEntry } from './sources.js';
import { nationalRules } from './table.js';
import type { ConventionRule, CountryConvention } from './types.js';

export type { ConventionRule, ConventionSource, CountryConvention } from './types.js';

const alphabets: Record<CharKind, string> = {
  n: '0123456789',
  a: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  c: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ',
};

function within(position: number, span: Span | null): boolean {
  return span !== null && position >= span.offset && position < span.offset + span.length;
}

/** The registry component a 0-based BBAN position belongs to (a check digit inside a code counts as check). */
function componentAt(format: CountryFormat, position: number): string {
  if (within(position, format.nationalCheckDigits)) return 'national check digits';
  if (within(position, format.bankCode)) return 'bank code';
  if (within(position, format.branchCode)) return 'branch code';
  return 'account number';
}

type ExampleClass = 'digits' | 'letters' | null;

/**
 * A `c` position follows the registry's example: a digit there means digits (real accounts of PK, PS, TR, ... are
 * numeric, as the published examples are); a letter means letters in a bank or branch code (DO "BAGR", BY "NBRB":
 * codes taken from BICs) and letters or digits in the account.
 */
function exampleClassAt(format: CountryFormat, position: number): ExampleClass {
  const published = format.example.charAt(4 + position);
  if (/[0-9]/.test(published)) return 'digits';
  const inCode = within(position, format.bankCode) || within(position, format.branchCode);
  return /[A-Z]/.test(published) && inCode ? 'letters' : null;
}

function exampleRule(
  format: CountryFormat,
  from: number,
  to: number,
  kind: ExampleClass,
): ConventionRule {
  const digitsRule = kind === 'digits';
  return {
    field: componentAt(format, from),
    from: from + 1,
    to: to + 1,
    draw: { kind: 'alphabet', alphabet: digitsRule ? alphabets.n : alphabets.a },
    rule: digitsRule
      ? 'digits (the registry allows letters; its example shows digits)'
      : 'letters (the registry allows digits; its example shows a BIC-style code)',
    basis: 'registry-example',
    sources: [swiftRegistryEntry(format.code)],
  };
}

/** Rules for the `c` positions no national rule covers, one per run of the same component and class. */
function exampleRules(format: CountryFormat, covered: Uint8Array): ConventionRule[] {
  const kinds = bbanKinds(format);
  const open = (position: number) => kinds[position] === 'c' && covered[position] === 0;
  const rules: ConventionRule[] = [];
  let position = 0;
  while (position < kinds.length) {
    if (!open(position)) {
      position++;
      continue;
    }
    const kind = exampleClassAt(format, position);
    const component = componentAt(format, position);
    let end = position;
    while (
      end + 1 < kinds.length &&
      open(end + 1) &&
      exampleClassAt(format, end + 1) === kind &&
      componentAt(format, end + 1) === component
    ) {
      end++;
    }
    if (kind !== null) rules.push(exampleRule(format, position, end, kind));
    position = end + 1;
  }
  return rules;
}

function spanText(from: number, to: number): string {
  return from === to ? `${from}` : `${from}-${to}`;
}

/** Where `c` positions keep letters and digits: said in the table, with the reason. */
function openNote(format: CountryFormat, rules: readonly ConventionRule[]): string | null {
  const kinds = bbanKinds(format);
  const fixed = new Uint8Array(kinds.length);
  for (const rule of rules) fixed.fill(1, rule.from - 1, rule.to);
  const open: string[] = [];
  for (let position = 0; position < kinds.length; position++) {
    if (kinds[position] !== 'c' || fixed[position] === 1) continue;
    let end = position;
    while (end + 1 < kinds.length && kinds[end + 1] === 'c' && fixed[end + 1] === 0) end++;
    open.push(spanText(position + 1, end + 1));
    position = end;
  }
  if (open.length === 0) return null;
  return (
    `BBAN ${open.join(', ')} keep the registry's letters-or-digits class: the registry example shows letters ` +
    'there and no national document restricting them was found'
  );
}

function buildConvention(format: CountryFormat): CountryConvention {
  const national = nationalRules.get(format.code) ?? [];
  const covered = new Uint8Array(format.bbanLength);
  for (const rule of national) covered.fill(1, rule.from - 1, rule.to);
  const rules = [...exampleRules(format, covered), ...national].sort((a, b) => a.from - b.from);
  return { country: format.code, rules, note: openNote(format, rules) };
}

const conventions: ReadonlyMap<string, CountryConvention> = new Map(
  countryFormats.map((format) => [format.code, buildConvention(format)]),
);

/** The country's BBAN convention: every rule with its source, and what keeps the registry class. */
export function conventionOf(format: CountryFormat): CountryConvention {
  const convention = conventions.get(format.code);
  return convention ?? buildConvention(format);
}

/**
 * The alphabet each BBAN position is drawn from: the registry's class, narrowed by the country's `alphabet`
 * rules. Narrowing keeps one draw per position, so a rule changes only its own positions.
 */
export function conventionalAlphabets(format: CountryFormat): string[] {
  const result = bbanKinds(format).map((kind) => alphabets[kind]);
  for (const rule of conventionOf(format).rules) {
    if (rule.draw.kind !== 'alphabet') continue;
    result.fill(rule.draw.alphabet, rule.from - 1, rule.to);
  }
  return result;
}

/** A whole-field rule ready to run: the value it writes at `start` (0-based) for a draft BBAN. */
interface FieldStep {
  readonly rule: ConventionRule;
  readonly start: number;
  value(draft: string, rng: Rng): string;
}

function weightedStep(
  rule: ConventionRule,
  values: readonly string[],
  weights: readonly number[],
): FieldStep {
  // Cumulative weights, so a draw is one rng call and a short scan.
  const bounds: number[] = [];
  let total = 0;
  for (const weight of weights) bounds.push((total += weight));
  return {
    rule,
    start: rule.from - 1,
    value(_draft, rng) {
      const ticket = rngBelow(rng, total);
      let index = 0;
      while (ticket >= (bounds[index] as number)) index++;
      return values[index] as string;
    },
  };
}

/** Prefixes of the field's length that no listed bank holds (for banks without a published allocation). */
function unlistedPrefixes(
  prefixLength: number,
  byBank: ReadonlyMap<string, readonly string[]>,
): string[] {
  const held = new Set([...byBank.values()].flat());
  const all = Array.from({ length: 10 ** prefixLength }, (_, value) =>
    String(value).padStart(prefixLength, '0'),
  );
  return all.filter((prefix) => !held.has(prefix));
}

function bankPrefixStep(
  rule: ConventionRule,
  format: CountryFormat,
  prefixLength: number,
  byBank: ReadonlyMap<string, readonly string[]>,
): FieldStep {
  const unlisted = unlistedPrefixes(prefixLength, byBank);
  const { offset, length } = format.bankCode;
  return {
    rule,
    start: rule.from - 1,
    value(draft, rng) {
      return rngPick(rng, byBank.get(draft.slice(offset, offset + length)) ?? unlisted);
    },
  };
}

function stepOf(rule: ConventionRule, format: CountryFormat): FieldStep | null {
  const draw = rule.draw;
  if (draw.kind === 'one-of') return weightedStep(rule, draw.values, draw.weights);
  if (draw.kind === 'bank-prefix') {
    return bankPrefixStep(rule, format, draw.prefixLength, draw.prefixesByBank);
  }
  return null;
}

function overlapsAny(rule: ConventionRule, given: readonly { readonly span: Span }[]): boolean {
  for (let index = 0; index < given.length; index++) {
    const span = (given[index] as { readonly span: Span }).span;
    if (rule.from - 1 < span.offset + span.length && span.offset < rule.to) return true;
  }
  return false;
}

const fieldSteps = new Map<string, readonly FieldStep[]>();

function fieldStepsOf(format: CountryFormat): readonly FieldStep[] {
  let steps = fieldSteps.get(format.code);
  if (steps === undefined) {
    steps = conventionOf(format)
      .rules.map((rule) => stepOf(rule, format))
      .filter((step): step is FieldStep => step !== null);
    fieldSteps.set(format.code, steps);
  }
  return steps;
}

/**
 * Applies the field rules that need the whole drafted BBAN (a currency, a sort code in the bank's range), in
 * table order with the row's rng, after the per-position pass. Fields overlapping a caller-given component keep
 * the caller's value. Countries without such rules draw nothing and get `draft` back.
 */
export function applyFieldConventions(
  format: CountryFormat,
  draft: string,
  rng: Rng,
  given: readonly { readonly span: Span }[],
): string {
  const steps = fieldStepsOf(format);
  if (steps.length === 0) return draft;
  let bban = draft;
  for (let index = 0; index < steps.length; index++) {
    const step = steps[index] as FieldStep;
    if (overlapsAny(step.rule, given)) continue;
    const value = step.value(bban, rng);
    bban = bban.slice(0, step.start) + value + bban.slice(step.start + value.length);
  }
  return bban;
}
