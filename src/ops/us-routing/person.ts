/**
 * Synthetic US person for /us/routing/profile, from the profile engine with the US locale (the same engine as
 * /profile). Deliberate choices so no value can be mistaken for real:
 * - email at example.com/.net/.org (reserved for documentation by RFC 2606);
 * - the SSN-like identifier is in a never-issued form (area 9xx, a non-ITIN group) and is shown only masked
 *   (***-**-NNNN);
 * - the street comes from faker's US locale; city, state and ZIP are a real place that belong together (a GeoNames
 *   city and one of its ZIPs in the zipcodes table); a directory target replaces city and state with the
 *   target's published ones and the ZIP with one the table lists for them (empty when it lists none).
 */
import { buildProfileRecord } from '../../domain/profiles/engine.js';
import { usZipsOf } from '../../domain/profiles/places.js';
import { rngPick, type Rng } from '../../domain/rng.js';
import type { BankDirectory } from '../../registry/bank-directory.js';

const ssnLastDigits = 4;

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

/** Adults of working age, as before the engine took over. */
const ageMin = 21;
const ageMax = 75;
/**
 * Ages are counted on this fixed day, not on the service clock: a seed must give the same person on every day
 * (the stored profile replays for 24 hours, and a regenerated one afterwards is the same person), as the birth
 * years drawn from a fixed range did before.
 */
const referenceDay = new Date(Date.UTC(2025, 0, 1));

/** One person from `rng`; `place` (a directory target's city and state) replaces the generated city and state. */
export function syntheticPerson(
  rng: Rng,
  bank: BankDirectory,
  place?: { readonly city: string; readonly state: string },
): SyntheticPerson {
  const record = buildProfileRecord(
    { countryCode: 'US', gender: undefined, ageMin, ageMax, withoutIban: true },
    rng,
    { bank, today: referenceDay },
  );
  const targetZips = place === undefined ? [] : usZipsOf(place.city, place.state);
  const zip =
    place === undefined
      ? (record.address.postal_code ?? '')
      : targetZips.length > 0
        ? rngPick(rng, targetZips)
        : '';
  return {
    given_name: record.first_name,
    family_name: record.last_name,
    date_of_birth: record.date_of_birth,
    email: record.email,
    ssn_like_last4: (record.ssn ?? '').slice(-ssnLastDigits),
    street: record.address.street,
    city: place?.city ?? record.address.city,
    state: place?.state ?? record.region ?? '',
    postal_code: zip,
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
