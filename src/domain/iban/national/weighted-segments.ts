import type { Rng } from '../../rng.js';
import {
  defineRule,
  type NationalCheckAt,
  type NationalCheckOutcome,
  type NationalRule,
} from './types.js';
import { redrawUntil, replaceAt, weightedDigitSum } from './bban-math.js';

const codeZero = 48; // '0': digit value = char code − 48

/**
 * A BBAN stretch whose weighted digit sum, check digit included (weight 1, last), is ≡ 0 modulo
 * 10 or 11. Covers the Polish, Albanian, Estonian, Hungarian, Norwegian, Czech/Slovak and
 * Icelandic rules, which differ only in weights, positions and modulus.
 */
export interface CheckedSegment {
  /** First BBAN index covered by `weights`. */
  readonly start: number;
  /** One weight per digit; the last one is the check digit's and must be 1. */
  readonly weights: readonly number[];
  readonly modulus: 10 | 11;
  /** Free digits redrawn when a modulus-11 sum needs a check digit of 10 (no such number is issued);
   *  never used for modulus 10, where every sum has a digit. */
  readonly redrawStart: number;
  readonly redrawEnd: number;
}

export function checkIndexOf(segment: CheckedSegment): number {
  return segment.start + segment.weights.length - 1;
}

/** `base` is where the BBAN starts in `text` (0 for a BBAN string, 4 inside an IBAN). */
export function segmentPasses(text: string, segment: CheckedSegment, base = 0): boolean {
  return weightedDigitSum(text, base + segment.start, segment.weights) % segment.modulus === 0;
}

/** The digit the check position needs (may be 10 for modulus 11: not completable). */
function requiredCheckDigit(bban: string, segment: CheckedSegment): number {
  const withoutCheck =
    weightedDigitSum(bban, segment.start, segment.weights) -
    (bban.charCodeAt(checkIndexOf(segment)) - codeZero);
  return (segment.modulus - (withoutCheck % segment.modulus)) % segment.modulus;
}

export function completeSegment(bban: string, segment: CheckedSegment, rng: Rng): string {
  const completable = redrawUntil(
    bban,
    segment.redrawStart,
    segment.redrawEnd,
    rng,
    (candidate) => {
      return requiredCheckDigit(candidate, segment) <= 9;
    },
  );
  return replaceAt(
    completable,
    checkIndexOf(segment),
    String(requiredCheckDigit(completable, segment)),
  );
}

/** A rule made of independent segments; every one must pass. */
export function weightedSegmentsRule(
  countryCode: string,
  rule: string,
  source: string,
  segments: readonly CheckedSegment[],
): NationalRule {
  const checkAt: NationalCheckAt = (text, start): NationalCheckOutcome => {
    for (let index = 0; index < segments.length; index++) {
      if (!segmentPasses(text, segments[index] as CheckedSegment, start)) return 'failed';
    }
    return 'passed';
  };
  return defineRule({
    countryCode,
    rule,
    source,
    checkAt,
    complete(bban, rng): string {
      let completed = bban;
      for (const segment of segments) completed = completeSegment(completed, segment, rng);
      return completed;
    },
  });
}
