import { rngBelow, type Rng } from '../rng.js';

const dayMs = 86_400_000;

/** Days of each month (0 = January) in a common year; February gets one more in a leap year. */
const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in month `month` (0-based) of `year`, proleptic Gregorian as Date computes it. */
function daysInMonth(year: number, month: number): number {
  return month === 1 && isLeapYear(year) ? 29 : (monthDays[month] as number);
}

/** UTC midnight of `reference` minus `years` calendar years (29 February falls back to 28 February). */
function yearsBefore(reference: Date, years: number): number {
  const year = reference.getUTCFullYear() - years;
  const month = reference.getUTCMonth();
  return Date.UTC(year, month, Math.min(reference.getUTCDate(), daysInMonth(year, month)));
}

interface CivilDate {
  readonly year: number;
  /** 1-12 */
  readonly month: number;
  readonly day: number;
}

/**
 * The UTC calendar date of a day count since 1970-01-01 (Howard Hinnant's days_from_civil inverse), without a
 * Date object per profile: the birth date of every bulk row goes through here.
 */
function civilFromDays(days: number): CivilDate {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1_460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

const pad2 = (value: number) => (value < 10 ? `0${value}` : String(value));

/** YYYY-MM-DD of a UTC midnight, as Date.toISOString() writes it (years 0-9999). */
function isoOf(date: CivilDate): string {
  return `${String(date.year).padStart(4, '0')}-${pad2(date.month)}-${pad2(date.day)}`;
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const isoDayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** The decimal value of the ASCII digits text[from..to). */
function digitsAt(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) value = value * 10 + (text.charCodeAt(i) - 48);
  return value;
}

function ageOnParts(year: number, month: number, day: number, reference: Date): number {
  let age = reference.getUTCFullYear() - year;
  if (
    reference.getUTCMonth() + 1 < month ||
    (reference.getUTCMonth() + 1 === month && reference.getUTCDate() < day)
  )
    age -= 1;
  return age;
}

/** Whole years between a birth date and the reference date (the age a form would compute). */
export function ageOn(dateOfBirth: string, reference: Date): number {
  if (isoDayPattern.test(dateOfBirth))
    return ageOnParts(
      digitsAt(dateOfBirth, 0, 4),
      digitsAt(dateOfBirth, 5, 7),
      digitsAt(dateOfBirth, 8, 10),
      reference,
    );
  const [year, month, day] = dateOfBirth.split('-').map(Number) as [number, number, number];
  return ageOnParts(year, month, day, reference);
}

/**
 * A birth date whose age on the reference date is uniform in [ageMin, ageMax]: the age first, then a day
 * inside that age's year of birthdays. Depends only on the rng and the reference date (a UTC day).
 */
export function birthDateFor(
  rng: Rng,
  ageMin: number,
  ageMax: number,
  reference: Date,
): { dateOfBirth: string; age: number } {
  const age = ageMin + rngBelow(rng, ageMax - ageMin + 1);
  const latest = yearsBefore(reference, age); // turns `age` today
  const earliest = yearsBefore(reference, age + 1) + dayMs; // turns `age + 1` tomorrow
  const span = Math.round((latest - earliest) / dayMs) + 1;
  const born = earliest + rngBelow(rng, span) * dayMs;
  const civil = civilFromDays(Math.floor(born / dayMs));
  if (civil.year < 0 || civil.year > 9999) {
    const dateOfBirth = isoDate(born);
    return { dateOfBirth, age: ageOn(dateOfBirth, reference) };
  }
  return {
    dateOfBirth: isoOf(civil),
    age: ageOnParts(civil.year, civil.month, civil.day, reference),
  };
}
