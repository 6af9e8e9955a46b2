import assert from 'node:assert/strict';
import { isValidIBAN } from 'ibantools';
import type { Rng } from '../../src/domain/rng.js';
import { requestKeyOf, rngBelow, rowRng } from '../../src/domain/rng.js';
import type { NationalContext, NationalRule } from '../../src/domain/iban/national/types.js';
import { noRegistryContext } from '../../src/domain/iban/national/types.js';

/**
 * Shared assertions for the national-rule tests (imported by *.test.ts only). Drafts are drawn
 * from the SWIFT registry BBAN structure string, e.g. '5!n5!n11!c2!n' for France.
 */

export const draftsPerRule = 2000; // the brief's sample size for "complete() output passes check()"

export function testRng(seed: string): Rng {
  return rowRng(requestKeyOf(seed, 'national-rule-tests'), 0);
}

/** 'n' digit, 'a' upper-case letter, 'c' either, one character per BBAN position. */
export function kindsOf(structure: string): string {
  let kinds = '';
  for (const [, count, kind] of structure.matchAll(/(\d+)!?([nac])/g))
    kinds += (kind ?? 'c').repeat(Number(count));
  return kinds;
}

const digits = '0123456789';
const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const alphanumerics = digits + letters;

function alphabetOf(kind: string): string {
  return kind === 'n' ? digits : kind === 'a' ? letters : alphanumerics;
}

export function draftBban(structure: string, rng: Rng): string {
  let draft = '';
  for (const kind of kindsOf(structure)) {
    const alphabet = alphabetOf(kind);
    draft += alphabet.charAt(rngBelow(rng, alphabet.length));
  }
  return draft;
}

function assertLayout(structure: string, bban: string): void {
  const kinds = kindsOf(structure);
  assert.equal(bban.length, kinds.length, `length of ${bban}`);
  for (let index = 0; index < kinds.length; index++) {
    assert.ok(
      alphabetOf(kinds.charAt(index)).includes(bban.charAt(index)),
      `kind at ${index} of ${bban}`,
    );
  }
}

/**
 * Completes `draftsPerRule` random drafts: each keeps its layout, passes `check`, and differs from
 * its draft only at `changeable` positions (check digits plus any positions the rule may redraw).
 */
export function assertCompletedDraftsPass(
  rule: NationalRule,
  structure: string,
  changeable: readonly number[],
  context: NationalContext = noRegistryContext,
): void {
  const rng = testRng(`complete-${rule.countryCode}`);
  for (let draftIndex = 0; draftIndex < draftsPerRule; draftIndex++) {
    const draft = draftBban(structure, rng);
    const completed = rule.complete(draft, rng, context);
    assertLayout(structure, completed);
    assert.equal(
      rule.check(completed, context),
      'passed',
      `${rule.countryCode} ${draft} -> ${completed}`,
    );
    for (let index = 0; index < draft.length; index++) {
      if (draft.charAt(index) !== completed.charAt(index)) {
        assert.ok(
          changeable.includes(index),
          `${rule.countryCode}: position ${index} changed in ${draft} -> ${completed}`,
        );
      }
    }
  }
}

/** Every single-character change at a check position (digit→digit, letter→letter) fails. */
export function assertCheckPositionChangesFail(
  rule: NationalRule,
  bban: string,
  checkPositions: readonly number[],
  context: NationalContext = noRegistryContext,
): void {
  assert.equal(
    rule.check(bban, context),
    'passed',
    `${rule.countryCode} ${bban} passes before mutation`,
  );
  for (const index of checkPositions) {
    const original = bban.charAt(index);
    const alphabet = digits.includes(original) ? digits : letters;
    for (const replacement of alphabet) {
      if (replacement === original) continue;
      const mutated = bban.slice(0, index) + replacement + bban.slice(index + 1);
      assert.equal(
        rule.check(mutated, context),
        'failed',
        `${rule.countryCode} ${mutated} (position ${index})`,
      );
    }
  }
}

/** Mutation test over `samples` completed random drafts as well as the given examples. */
export function assertMutationsFailOnCompletedDrafts(
  rule: NationalRule,
  structure: string,
  checkPositions: readonly number[],
  samples = 50,
): void {
  const rng = testRng(`mutate-${rule.countryCode}`);
  for (let sample = 0; sample < samples; sample++) {
    assertCheckPositionChangesFail(
      rule,
      rule.complete(draftBban(structure, rng), rng, noRegistryContext),
      checkPositions,
    );
  }
}

/** The BBAN of a published example IBAN, after asserting the example itself is a valid IBAN. */
export function bbanOfExample(iban: string): string {
  assert.ok(isValidIBAN(iban), `${iban} is a valid IBAN (transcription check)`);
  return iban.slice(4);
}

/** Positions [start, end) as a list. */
export function range(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, offset) => start + offset);
}
