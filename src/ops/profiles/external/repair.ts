import { ageOn } from '../../../domain/profiles/dates.js';
import { syntheticEmail } from '../../../domain/profiles/email.js';
import type { Gender, ProfileRecord } from '../../../domain/profiles/engine.js';
import { ssnSchemes, taxIdSchemes } from '../../../domain/profiles/national-ids/index.js';
import { AppError } from '../../../errors.js';
import type { DraftProfile } from '../builtin.js';
import { profileLimits } from '../../../limits.js';

function clean(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\s+/g, ' ').trim().slice(0, profileLimits.externalFieldCharsMax);
  return text === '' ? undefined : text;
}

function genderOf(value: unknown): Gender | undefined {
  const text = clean(value)?.toLowerCase();
  if (text === 'female' || text === 'f' || text === 'woman') return 'female';
  if (text === 'male' || text === 'm' || text === 'man') return 'male';
  return undefined;
}

function refuse(message: string): AppError {
  return new AppError(
    'unavailable',
    `Profile provider unavailable: its answer was refused (${message}); nothing was debited`,
  );
}

export interface RepairedProfile {
  readonly record: ProfileRecord;
  /** Fields the provider left out or got wrong, filled from the built-in draft. */
  readonly repaired: readonly string[];
}

/**
 * The provider's person merged over the built-in draft, against the same schema. Refused (503): no usable first
 * or last name, or a gender other than the one requested. Repaired from the draft: a missing or unknown gender,
 * a birth date that is not YYYY-MM-DD or outside age_min..age_max, a missing street, postal code, city or
 * occupation. The email and national identifier are then rebuilt for the final person, so they agree with it.
 */
export function repairExternal(
  answer: Record<string, unknown>,
  draft: DraftProfile,
): RepairedProfile {
  const repaired: string[] = [];
  const base = draft.record;
  const firstName = clean(answer.first_name);
  const lastName = clean(answer.last_name);
  if (firstName === undefined || lastName === undefined || !/\p{L}/u.test(firstName + lastName))
    throw refuse('no first_name or last_name');
  const gender = genderFor(answer, draft, repaired);
  const dateOfBirth = birthDateFor(answer, draft, repaired);
  const pick = (
    field: 'street' | 'postal_code' | 'city' | 'occupation',
    fallback: string | null,
  ) => {
    const value = clean(answer[field]);
    if (value !== undefined) return value;
    repaired.push(field);
    return fallback;
  };
  const address = {
    street: pick('street', base.address.street) as string,
    postal_code: pick('postal_code', base.address.postal_code),
    city: pick('city', base.address.city) as string,
    country: base.address.country,
  };
  const occupation = pick('occupation', base.occupation) as string;
  const subject = { firstName, lastName, sex: gender, dateOfBirth };
  const record: ProfileRecord = {
    ...base,
    first_name: firstName,
    last_name: lastName,
    gender,
    date_of_birth: subject.dateOfBirth,
    age: ageOn(subject.dateOfBirth, draft.today),
    email: syntheticEmail(firstName, lastName, draft.rng),
    address,
    occupation,
    tax_id: taxIdSchemes[base.country_code]?.generate(subject, draft.rng) ?? null,
    ssn: ssnSchemes[base.country_code]?.generate(subject, draft.rng) ?? null,
  };
  return { record, repaired };
}

/** The provider's gender; refused when it is not the one requested, the request's or the draft's when absent. */
function genderFor(
  answer: Record<string, unknown>,
  draft: DraftProfile,
  repaired: string[],
): Gender {
  const requested = draft.input.gender === 'random' ? undefined : draft.input.gender;
  const gender = genderOf(answer.gender);
  if (requested !== undefined && gender !== undefined && gender !== requested)
    throw refuse(`gender ${gender}, ${requested} was requested`);
  if (gender !== undefined) return gender;
  repaired.push('gender');
  return requested ?? draft.record.gender;
}

/** The provider's birth date when it is a real YYYY-MM-DD date in the requested age range, else the draft's. */
function birthDateFor(
  answer: Record<string, unknown>,
  draft: DraftProfile,
  repaired: string[],
): string {
  const dateOfBirth = clean(answer.date_of_birth);
  const validDate =
    dateOfBirth !== undefined &&
    /^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth) &&
    !Number.isNaN(Date.parse(`${dateOfBirth}T00:00:00Z`)) &&
    new Date(`${dateOfBirth}T00:00:00Z`).toISOString().startsWith(dateOfBirth);
  const age = validDate ? ageOn(dateOfBirth, draft.today) : -1;
  if (!validDate || age < draft.input.age_min || age > draft.input.age_max) {
    repaired.push('date_of_birth');
    return draft.record.date_of_birth;
  }
  return dateOfBirth;
}

/** What the provider is asked for: the draft's country and the request's constraints and hints. */
export function promptOf(draft: DraftProfile): string {
  return JSON.stringify({
    task: 'one fictional person for payment QA test data',
    country: draft.record.country,
    country_code: draft.record.country_code,
    gender: draft.input.gender,
    age_min: draft.input.age_min,
    age_max: draft.input.age_max,
    reference_date: draft.today.toISOString().slice(0, 10),
    hints: draft.input.additional_info ?? {},
  });
}
