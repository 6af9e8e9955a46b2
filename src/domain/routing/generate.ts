import { assert, unreachable } from '../../assert.js';
import { AppError } from '../../errors.js';
import { rngDigits, rngPick, type Rng } from '../rng.js';
import { abaCheckDigit } from './aba.js';
import { assignedPrefixes, describePrefix, federalReserveBankRoutingNumbers } from './prefixes.js';

/**
 * Synthetic routing numbers: a prefix, six random digits, and the 3-7-1 check digit.
 *
 * What "synthetic" can and cannot promise: without a current directory (the Fed's E-Payments
 * Routing Directory is licensed, not bundled) we cannot know which of the ~3.7 × 10^7
 * checksum-valid numbers are assigned, so a synthetic number may coincide with a real RTN (the
 * 2016+2018 FedACH/Fedwire files hold ~20,000 distinct ones, well under 0.1 % of the default
 * space). Hence every row says bank_assignment: null and asserts no assignment. We do skip the
 * twelve Federal Reserve Banks' own routing numbers, the best-known real numbers, and a caller that
 * holds a directory can pass `exclude` to redraw any number it knows to be assigned.
 */
export const syntheticRoutingNote = 'synthetic: checksum-valid, no bank assignment asserted';

/**
 * Default prefixes: 01-12 and 21-32, the ranges depository institutions hold (every FedACH record
 * but one uses them). 00 (U.S. Government), 61-72 (ETIs) and 80 (traveler's cheques) pass
 * validation but are not ordinary bank destinations, so they are generated only when asked for.
 */
export const defaultGenerationPrefixes: readonly string[] = assignedPrefixes.filter((value) => {
  const kind = describePrefix(value)?.kind;
  return kind === 'federal_reserve_district' || kind === 'thrift_institution';
});

const freeDigits = 6; // 9 digits = 2 prefix + 6 free + 1 check digit
// A redraw happens only on an excluded or repeated number: ≥ 10^6 numbers per prefix against a
// directory-sized exclusion set make 64 misses in a row a sign that exclusions cover the space.
const maxRedraws = 64;

export interface RoutingRow {
  readonly routing_number: string;
  readonly prefix: string;
  readonly district: number | null;
  readonly synthetic: true;
  readonly bank_assignment: null;
  readonly note: typeof syntheticRoutingNote;
}

/** Anything that answers membership (a Set, or a view over several). */
export type NumberSet = Pick<ReadonlySet<string>, 'has'>;

export interface GenerateRoutingOptions {
  /** Two-digit prefixes to draw from (uniformly); each must be an ABA prefix. Default: 01-12, 21-32. */
  readonly prefixes?: readonly string[];
  /** Numbers never to emit, e.g. the assigned numbers of an operator-supplied directory. */
  readonly exclude?: NumberSet;
}

/** Validates and de-duplicates requested prefixes (first occurrence wins); invalid_argument on error. */
export function resolveGenerationPrefixes(prefixes?: readonly string[]): readonly string[] {
  if (prefixes === undefined) return defaultGenerationPrefixes;
  if (prefixes.length === 0) throw new AppError('invalid_argument', 'prefixes must not be empty');
  for (const value of prefixes) {
    const described = describePrefix(value);
    if (described === undefined || described.kind === 'unassigned') {
      throw new AppError(
        'invalid_argument',
        `not an ABA routing prefix: ${JSON.stringify(value)}`,
        {
          allowed: '00-12, 21-32, 61-72, 80',
        },
      );
    }
  }
  return [...new Set(prefixes)];
}

function rowOf(routingNumber: string, prefix: string): RoutingRow {
  return {
    routing_number: routingNumber,
    prefix,
    district: describePrefix(prefix)?.district ?? null,
    synthetic: true,
    bank_assignment: null,
    note: syntheticRoutingNote,
  };
}

/**
 * One synthetic row from `rng` (for sliced generation: rowRng(key, i) per row). `prefixes` must
 * already be resolved; `skip` holds numbers to redraw (exclusions, numbers already emitted).
 */
export function generateRoutingRow(
  rng: Rng,
  prefixes: readonly string[],
  skip?: NumberSet,
): RoutingRow {
  for (let attempt = 0; attempt < maxRedraws; attempt++) {
    const prefix = rngPick(rng, prefixes);
    const first8 = prefix + rngDigits(rng, freeDigits);
    const routingNumber = first8 + String(abaCheckDigit(first8));
    if (federalReserveBankRoutingNumbers.includes(routingNumber)) continue;
    if (skip?.has(routingNumber)) continue;
    return rowOf(routingNumber, prefix);
  }
  return unreachable(
    `no new routing number after ${maxRedraws} draws: exclusions cover the prefixes`,
  );
}

/** `quantity` distinct synthetic rows drawn from one generator; the same rng state gives the same rows. */
export function generateRoutingNumbers(
  rng: Rng,
  quantity: number,
  options: GenerateRoutingOptions = {},
): RoutingRow[] {
  assert(Number.isInteger(quantity) && quantity >= 0, 'quantity is a non-negative integer');
  const prefixes = resolveGenerationPrefixes(options.prefixes);
  const emitted = new Set<string>();
  const exclude = options.exclude;
  const skip: NumberSet = { has: (value) => emitted.has(value) || exclude?.has(value) === true };
  const rows: RoutingRow[] = [];
  for (let index = 0; index < quantity; index++) {
    const row = generateRoutingRow(rng, prefixes, skip);
    emitted.add(row.routing_number);
    rows.push(row);
  }
  return rows;
}
