import { AppError } from '../../errors.js';
import { rngBelow, rngPick, type Rng } from '../rng.js';
import { abaCheckDigit, abaWeights, checkRoutingNumber, type RoutingError } from './aba.js';
import { unassignedPrefixes } from './prefixes.js';

/**
 * Edge cases derived from one valid routing number (rows[].test_cases of /us/routing/run).
 * Every expected outcome is computed here from the 3-7-1 arithmetic, independently of
 * checkRoutingNumber; the tests assert that the two agree on every case.
 */
export type RoutingCaseCategory = 'valid' | 'checksum' | 'length' | 'characters' | 'prefix';

export interface RoutingTestCase {
  readonly case_id: string;
  readonly category: RoutingCaseCategory;
  readonly input: string;
  readonly expected_valid: boolean;
  readonly expected_error: RoutingError | null;
  readonly description: string;
}

const prefixDigits = 2; // positions 1-2; edits there could change the prefix verdict, so edits start at 3
const lastIndex = 8; // 0-based index of the check digit
const decimalBase = 10;
const letters: readonly string[] = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];

function digitAt(text: string, index: number): number {
  return Number(text.charAt(index));
}

function replaceAt(text: string, index: number, replacement: string): string {
  return text.slice(0, index) + replacement + text.slice(index + 1);
}

function make(
  slug: string,
  category: RoutingCaseCategory,
  input: string,
  error: RoutingError | null,
  description: string,
): RoutingTestCase {
  return {
    case_id: `aba-${slug}`,
    category,
    input,
    expected_valid: error === null,
    expected_error: error,
    description,
  };
}

function changedDigit(
  rng: Rng,
  routingNumber: string,
  index: number,
  slug: string,
): RoutingTestCase {
  const old = digitAt(routingNumber, index);
  const replacement = (old + 1 + rngBelow(rng, decimalBase - 1)) % decimalBase; // any digit but the old one
  const weight = abaWeights[index];
  const step = replacement - old;
  return make(
    slug,
    'checksum',
    replaceAt(routingNumber, index, String(replacement)),
    'invalid_checksum',
    `digit ${index + 1} changed from ${old} to ${replacement}: the sum moves by ${weight}×${step < 0 ? `(${step})` : step}, never a multiple of 10 because ${weight} is coprime to 10`,
  );
}

/** Swap digits i and i+1 (both after the prefix); the outcome depends on the digits, so compute it. */
function transposition(rng: Rng, routingNumber: string): RoutingTestCase | undefined {
  const candidates: number[] = [];
  for (let index = prefixDigits; index < lastIndex; index++) {
    if (routingNumber[index] !== routingNumber[index + 1]) candidates.push(index);
  }
  if (candidates.length === 0) return undefined; // every swap would give the same string back
  const index = rngPick(rng, candidates);
  const left = digitAt(routingNumber, index);
  const right = digitAt(routingNumber, index + 1);
  const shift =
    ((abaWeights[index] as number) - (abaWeights[index + 1] as number)) * (right - left);
  const undetected = shift % decimalBase === 0;
  const input =
    routingNumber.slice(0, index) +
    routingNumber[index + 1] +
    routingNumber[index] +
    routingNumber.slice(index + 2);
  const outcome = undetected
    ? 'the digits differ by 5 and the weight difference is even, so the checksum still passes'
    : 'the checksum fails';
  return make(
    'adjacent-transposition',
    'checksum',
    input,
    undetected ? null : 'invalid_checksum',
    `digits ${index + 1} and ${index + 2} (${left}, ${right}) swapped: sum moves by ${shift}; ${outcome}`,
  );
}

function badPrefix(rng: Rng, routingNumber: string): RoutingTestCase {
  const prefix = rngPick(rng, unassignedPrefixes);
  const first8 = prefix + routingNumber.slice(prefixDigits, lastIndex);
  return make(
    'bad-prefix',
    'prefix',
    first8 + String(abaCheckDigit(first8)),
    'invalid_prefix',
    `prefix ${prefix} is outside 00-12, 21-32, 61-72 and 80; check digit recomputed so only the prefix is wrong`,
  );
}

/** Edge cases for one valid routing number, deterministic for a given rng state. */
export function routingTestCases(rng: Rng, routingNumber: string): RoutingTestCase[] {
  const verdict = checkRoutingNumber(routingNumber);
  if (!verdict.valid) {
    throw new AppError(
      'invalid_argument',
      `test cases need a valid routing number (${verdict.error ?? 'invalid'})`,
      {
        routing_number: routingNumber,
      },
    );
  }
  const bodyIndex = prefixDigits + rngBelow(rng, lastIndex - prefixDigits); // 2..7: not the check digit
  const letterIndex = rngBelow(rng, routingNumber.length);
  const letter = rngPick(rng, letters);
  const cases: (RoutingTestCase | undefined)[] = [
    make(
      'valid',
      'valid',
      routingNumber,
      null,
      'the routing number itself: prefix and 3-7-1 checksum pass',
    ),
    changedDigit(rng, routingNumber, bodyIndex, 'digit-changed'),
    changedDigit(rng, routingNumber, lastIndex, 'check-digit-changed'),
    transposition(rng, routingNumber),
    make(
      'too-short',
      'length',
      routingNumber.slice(0, lastIndex),
      'invalid_length',
      'last digit dropped: 8 digits',
    ),
    make(
      'too-long',
      'length',
      routingNumber + String(rngBelow(rng, decimalBase)),
      'invalid_length',
      'one digit appended: 10 digits',
    ),
    ...characterCases(routingNumber, letterIndex, letter),
    badPrefix(rng, routingNumber),
  ];
  return cases.filter((entry): entry is RoutingTestCase => entry !== undefined);
}

/** Characters a strict checker rejects; draws nothing from the rng (the letter is drawn by the caller, in order). */
function characterCases(
  routingNumber: string,
  letterIndex: number,
  letter: string,
): RoutingTestCase[] {
  return [
    make(
      'letter',
      'characters',
      replaceAt(routingNumber, letterIndex, letter),
      'invalid_characters',
      `digit ${letterIndex + 1} replaced by the letter ${letter}`,
    ),
    make(
      'hyphenated',
      'characters',
      `${routingNumber.slice(0, 4)}-${routingNumber.slice(4, 8)}-${routingNumber.slice(8)}`,
      'invalid_characters',
      'printed XXXX-YYYY-C grouping: a strict checker rejects the hyphens, a lenient one strips them first',
    ),
    make(
      'surrounding-space',
      'characters',
      ` ${routingNumber} `,
      'invalid_characters',
      'leading and trailing space as pasted from a document: not trimmed by the checker',
    ),
  ];
}
