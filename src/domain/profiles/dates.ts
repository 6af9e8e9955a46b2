import { rngBelow, type Rng } from '../rng.js';

const dayMs = 86_400_000;

/** UTC midnight of `reference` minus `years` calendar years (29 February falls back to 28 February). */
function yearsBefore(reference: Date, years: number): number {
  const year = reference.getUTCFullYear() - years;
  const month = reference.getUTCMonth();
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(reference.getUTCDate(), lastDay));
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whole years between a birth date and the reference date (the age a form would compute). */
export function ageOn(dateOfBirth: string, reference: Date): number {
  const [year, month, day] = dateOfBirth.split('-').map(Number) as [number, number, number];
  let age = reference.getUTCFullYear() - year;
  if (reference.getUTCMonth() + 1 < month || (reference.getUTCMonth() + 1 === month && reference.getUTCDate() < day)) age -= 1;
  return age;
}

/**
 * A birth date whose age on the reference date is uniform in [ageMin, ageMax]: the age first, then a day
 * inside that age's year of birthdays. Depends only on the rng and the reference date (a UTC day).
 */
export function birthDateFor(rng: Rng, ageMin: number, ageMax: number, reference: Date): { dateOfBirth: string; age: number } {
  const age = ageMin + rngBelow(rng, ageMax - ageMin + 1);
  const latest = yearsBefore(reference, age); // turns `age` today
  const earliest = yearsBefore(reference, age + 1) + dayMs; // turns `age + 1` tomorrow
  const span = Math.round((latest - earliest) / dayMs) + 1;
  const dateOfBirth = isoDate(earliest + rngBelow(rng, span) * dayMs);
  return { dateOfBirth, age: ageOn(dateOfBirth, reference) };
}
