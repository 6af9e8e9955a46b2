/**
 * Synthetic US person for /us/routing/profile. Everything here is drawn from small built-in lists and the
 * row generator; nothing identifies a real person. Deliberate choices so no value can be mistaken for real:
 * - email at example.com (reserved for documentation by RFC 2606);
 * - the SSN-like identifier exists only masked (***-**-NNNN): no full number is ever generated;
 * - street names are generic and the house number and ZIP are random: the address is labelled synthetic.
 * Cities are U.S. state capitals with their state (real places, used only as a plausible city).
 */
import { rngBelow, rngDigits, rngPick, type Rng } from '../../domain/rng.js';

const givenNames: readonly string[] = [
  'Alex', 'Jordan', 'Taylor', 'Morgan', 'Casey', 'Riley', 'Jamie', 'Avery', 'Quinn', 'Drew',
  'Emma', 'Olivia', 'Liam', 'Noah', 'Sophia', 'Mason', 'Ava', 'Ethan', 'Mia', 'Lucas',
];
const familyNames: readonly string[] = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Miller', 'Davis', 'Wilson', 'Anderson', 'Thomas',
  'Moore', 'Martin', 'Clark', 'Lewis', 'Walker', 'Hall', 'Young', 'King', 'Wright', 'Scott',
];
const streetNames: readonly string[] = ['Maple', 'Oak', 'Cedar', 'Pine', 'Elm', 'Willow', 'Birch', 'Lake', 'Hill', 'Park', 'Sunset', 'River'];
const streetTypes: readonly string[] = ['St', 'Ave', 'Rd', 'Ln', 'Dr', 'Ct', 'Way', 'Pl'];
/** [capital, state]: U.S. state capitals. */
const capitals: readonly (readonly [string, string])[] = [
  ['Boston', 'MA'], ['Denver', 'CO'], ['Austin', 'TX'], ['Phoenix', 'AZ'], ['Columbus', 'OH'], ['Nashville', 'TN'],
  ['Sacramento', 'CA'], ['Atlanta', 'GA'], ['Richmond', 'VA'], ['Madison', 'WI'], ['Albany', 'NY'], ['Raleigh', 'NC'],
  ['Lansing', 'MI'], ['Harrisburg', 'PA'], ['Boise', 'ID'], ['Salem', 'OR'],
];

const houseNumberMax = 9_999;
const birthYearFirst = 1950; // adults of working age at any date this service runs
const birthYearSpan = 55;
const monthsPerYear = 12;
const daysInEveryMonth = 28; // days 1-28 exist in every month: no calendar arithmetic needed
const zipDigits = 5;
const ssnLastDigits = 4;
const emailSuffixDigits = 4;

export interface SyntheticPerson {
  readonly given_name: string;
  readonly family_name: string;
  readonly date_of_birth: string;
  readonly email: string;
  readonly ssn_like_last4: string;
  readonly street: string;
  readonly city: string;
  readonly state: string;
  readonly postal_code: string;
}

const two = (n: number) => String(n).padStart(2, '0');

/** One person from `rng`; `place` (a directory target's city and state) replaces the list city when given. */
export function syntheticPerson(rng: Rng, place?: { readonly city: string; readonly state: string }): SyntheticPerson {
  const given = rngPick(rng, givenNames);
  const family = rngPick(rng, familyNames);
  const year = birthYearFirst + rngBelow(rng, birthYearSpan);
  const birth = `${year}-${two(1 + rngBelow(rng, monthsPerYear))}-${two(1 + rngBelow(rng, daysInEveryMonth))}`;
  const street = `${1 + rngBelow(rng, houseNumberMax)} ${rngPick(rng, streetNames)} ${rngPick(rng, streetTypes)}`;
  const [listCity, listState] = rngPick(rng, capitals);
  return {
    given_name: given,
    family_name: family,
    date_of_birth: birth,
    email: `${given}.${family}.${rngDigits(rng, emailSuffixDigits)}@example.com`.toLowerCase(),
    ssn_like_last4: rngDigits(rng, ssnLastDigits),
    street,
    city: place?.city ?? listCity,
    state: place?.state ?? listState,
    postal_code: rngDigits(rng, zipDigits),
  };
}

/** First character and asterisks: enough to recognise the row, not to use the value. */
export function maskText(text: string): string {
  return text.length === 0 ? text : `${text.charAt(0)}***`;
}

/** All but the last four characters replaced by asterisks. */
export function maskTail(text: string, visible = 4): string {
  return '*'.repeat(Math.max(0, text.length - visible)) + text.slice(-visible);
}
