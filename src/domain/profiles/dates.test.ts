import assert from 'node:assert/strict';
import { it } from 'node:test';
import { requestKeyOf, rngBelow, rowRng, type Rng } from '../rng.js';
import { ageOn, birthDateFor } from './dates.js';

const dayMs = 86_400_000;

/** The same draw written with Date objects only (day arithmetic and formatting by the platform). */
function birthDateWithDates(
  rng: Rng,
  ageMin: number,
  ageMax: number,
  reference: Date,
): { dateOfBirth: string; age: number } {
  const yearsBefore = (years: number) => {
    const year = reference.getUTCFullYear() - years;
    const lastDay = new Date(Date.UTC(year, reference.getUTCMonth() + 1, 0)).getUTCDate();
    return Date.UTC(year, reference.getUTCMonth(), Math.min(reference.getUTCDate(), lastDay));
  };
  const age = ageMin + rngBelow(rng, ageMax - ageMin + 1);
  const latest = yearsBefore(age);
  const earliest = yearsBefore(age + 1) + dayMs;
  const span = Math.round((latest - earliest) / dayMs) + 1;
  const dateOfBirth = new Date(earliest + rngBelow(rng, span) * dayMs).toISOString().slice(0, 10);
  return { dateOfBirth, age: ageOn(dateOfBirth, reference) };
}

it('birth dates match the Date-based computation, leap days and century years included', () => {
  const key = requestKeyOf('dates-test', '{}');
  const references = [
    Date.UTC(2024, 1, 29),
    Date.UTC(2000, 1, 29),
    Date.UTC(2100, 2, 1),
    Date.UTC(2026, 10, 24),
    Date.UTC(1999, 11, 31),
    Date.UTC(2025, 0, 1),
  ];
  for (let day = 0; day < 800; day++) references.push(Date.UTC(2023, 0, 1) + day * dayMs);
  let row = 0;
  for (const ms of references) {
    const reference = new Date(ms);
    for (let draw = 0; draw < 60; draw++, row++) {
      const [ageMin, ageMax] = draw % 3 === 0 ? [18, 120] : draw % 3 === 1 ? [30, 30] : [18, 80];
      const ours = birthDateFor(rowRng(key, row), ageMin, ageMax, reference);
      assert.deepEqual(
        ours,
        birthDateWithDates(rowRng(key, row), ageMin, ageMax, reference),
        `reference ${reference.toISOString()} row ${row}`,
      );
      assert.ok(ours.age >= ageMin && ours.age <= ageMax);
    }
  }
});

it('ageOn reads YYYY-MM-DD and other dash forms alike', () => {
  const reference = new Date(Date.UTC(2026, 10, 24));
  assert.equal(ageOn('1990-11-24', reference), 36);
  assert.equal(ageOn('1990-11-25', reference), 35);
  assert.equal(ageOn('1990-12-01', reference), 35);
  assert.equal(ageOn('2000-02-29', reference), 26);
  assert.equal(ageOn('1990-1-5', reference), 36);
});
