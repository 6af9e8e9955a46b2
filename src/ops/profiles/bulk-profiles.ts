import { buildProfileRecord } from '../../domain/profiles/engine.js';
import { rowRng } from '../../domain/rng.js';
import type { RunContext } from '../framework/op.js';
import {
  builtinProvider,
  profileStream,
  referenceDay,
  scoreOf,
  type ProfileNeeds,
} from './builtin.js';
import { personalShape } from './shapes.js';

export type BulkProfile = ReturnType<typeof personalShape>;

/** rowRng stream of a dataset's phone salt: one per request, so every row maps its index with the same bijection. */
const phoneSaltStream = 0x70686f6e; // "phon"

/**
 * The profile of bulk row `index`: a person of the row's country who holds the row's IBAN (the registry's bank
 * for its bank code, if any). Row i's person depends only on (request key, i), on its own rng stream next to the
 * IBAN's, so the IBAN columns are the same with or without profiles. Phones are unique within the dataset: the
 * row index is the phone slot, mapped to the country's numbers by one bijection per request.
 */
export function bulkRowProfile(
  countryCode: string,
  iban: string,
  bankCode: string,
  index: number,
  context: RunContext<ProfileNeeds>,
  today: Date = referenceDay(context),
): BulkProfile {
  const record = buildProfileRecord(
    {
      countryCode,
      gender: undefined,
      ageMin: 18,
      ageMax: 80,
      account: { iban, bank: context.bank.bankOf(countryCode, bankCode) },
      phoneSlot: { index, salt: rowRng(context.requestKey, 0, phoneSaltStream).nextU32() },
    },
    rowRng(context.requestKey, index, profileStream),
    { bank: context.bank, today },
  );
  return personalShape(record, scoreOf(record, context, today), builtinProvider);
}

/** Flattened CSV columns of a bulk profile, in this order (documented in the README and OpenAPI). */
export const bulkProfileColumns = [
  'profile_first_name',
  'profile_last_name',
  'profile_gender',
  'profile_date_of_birth',
  'profile_age',
  'profile_email',
  'profile_phone',
  'profile_street',
  'profile_postal_code',
  'profile_city',
  'profile_country',
  'profile_occupation',
  'profile_tax_id',
  'profile_tax_id_scheme',
  'profile_ssn',
  'profile_card_type',
  'profile_card_number',
  'profile_card_expiry',
  'profile_quality_score',
] as const;

export function bulkProfileCells(profile: BulkProfile | undefined): (string | number | null)[] {
  if (profile === undefined) return bulkProfileColumns.map(() => null);
  return [
    profile.first_name,
    profile.last_name,
    profile.gender,
    profile.date_of_birth,
    profile.age,
    profile.email,
    profile.phone,
    profile.address.street,
    profile.address.postal_code,
    profile.address.city,
    profile.address.country,
    profile.occupation,
    profile.tax_id,
    profile.tax_id_scheme,
    profile.ssn,
    profile.credit_card.type,
    profile.credit_card.number,
    profile.credit_card.expiry,
    profile.quality_score,
  ];
}
