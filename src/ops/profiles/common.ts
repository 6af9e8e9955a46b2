import type { CallerView, Debits } from '../framework/op.js';
import type { ProfileInput } from './request.js';

/** Spec metering: API credits plus profile credits; one of each per profile. */
export function profileCost(_input: ProfileInput, _caller: CallerView): Debits {
  return { api_calls: 1, profiles: 1 };
}

/** The spec's error table: spent profile credits are 403 generation_limit_reached, not 429. */
export const profileExhaustedErrors = { profiles: 'generation_limit_reached' } as const;
export const generationsLeft = { kind: 'profiles', field: 'generations_left' } as const;

export const shapeRule =
  'Shape rule: a request carrying any bank context (iban, swift_code, bank_name or bank_city) gets the bank-context ' +
  'shape (iban, provider, model, model_tier, quality_score, quality_tier, quality_label, quality_reasons, and ' +
  'profile {full_name, country, city, bank_account {bank_name, bank_website, swift_bic, ...}}); any other request ' +
  'gets the personal-data shape (names, gender, date_of_birth, age, email, phone, address, occupation, tax_id, ssn, ' +
  'masked credit_card, iban, quality).';

export const profileRules =
  'Cost: one API credit and one profile credit; spent profile credits are 403 generation_limit_reached, spent API ' +
  'credits 429. generations_left: profile credits left after this request (null on uncapped plans). Bad input ' +
  '(age_min > age_max, ages outside 18-120, unknown gender or country, a malformed IBAN or one of another country, a ' +
  'swift_code that is not a BIC, additional_info over 2 KiB or 4 levels deep) is 400 and debits nothing. A bank ' +
  'context that matches no registry bank is 404 target_no_match: no other bank is substituted. With a seed the ' +
  'profile is a pure function of (seed, request, registry snapshot, UTC day); unseeded it is fresh every call. ' +
  'Everything is synthetic and labelled so: a real GeoNames place of the country (US: ZIP, city and state that ' +
  "belong together), names in the country's language with the surname form of the gender, emails at RFC 2606 " +
  'domains transliterated from the name, phones valid for the country in libphonenumber and unique within a bulk ' +
  'dataset (phone_range "fictional": a regulator-reserved fiction range, GB only), ISCO-08 occupations, ' +
  'identifiers with valid check digits (US SSN in never-issued forms), published test card numbers shown masked.';
