import { Type } from '@sinclair/typebox';
import type { ProfileRecord } from '../../domain/profiles/engine.js';
import type { QualityScore } from '../../domain/profiles/quality.js';
import type { CallerView } from '../framework/op.js';
import { nullableString } from '../framework/schemas.js';

/** Who produced a profile: the built-in engine or an external model. */
export interface ProviderInfo {
  readonly provider: string;
  readonly model: string;
  /** builtin: the faker engine; external: an OpenAI-compatible model. */
  readonly model_tier: 'builtin' | 'external';
}

const locked = 'LOCKED';

function reasonsOf(quality: QualityScore) {
  return quality.reasons.map((reason) => ({
    code: reason.code,
    group: reason.group,
    field: reason.field,
    penalty: reason.penalty,
    message: reason.message,
  }));
}

function qualityFields(quality: QualityScore) {
  return {
    quality_score: quality.score,
    quality_tier: quality.tier,
    quality_label: quality.label,
    quality_reasons: reasonsOf(quality),
  };
}

/**
 * The personal-data shape: the person in full, card and CVV masked. One object literal, no spreads: bulk
 * datasets build one per row (the key order is the wire order).
 */
export function personalShape(
  record: ProfileRecord,
  quality: QualityScore,
  provider: ProviderInfo,
) {
  return {
    synthetic: true as const,
    provider: provider.provider,
    model: provider.model,
    model_tier: provider.model_tier,
    country_code: record.country_code,
    first_name: record.first_name,
    last_name: record.last_name,
    gender: record.gender,
    date_of_birth: record.date_of_birth,
    age: record.age,
    email: record.email,
    phone: record.phone,
    phone_range: record.phone_range,
    address: record.address,
    occupation: record.occupation,
    tax_id: record.tax_id,
    tax_id_scheme: record.tax_id_scheme,
    ssn: record.ssn,
    credit_card: record.credit_card,
    iban: record.iban,
    locale: record.locale,
    locale_fallback: record.locale_fallback,
    quality_score: quality.score,
    quality_tier: quality.tier,
    quality_label: quality.label,
    quality_reasons: reasonsOf(quality),
  };
}

/**
 * The bank-context shape: the IBAN and its bank as the registry knows them, scored. Free keys see the BIC and
 * bank name as LOCKED, as everywhere in the service; the score is computed on the unlocked data.
 */
export function bankContextShape(
  record: ProfileRecord,
  quality: QualityScore,
  provider: ProviderInfo,
  caller: CallerView,
) {
  const bank = record.bank;
  const hide = (value: string | null) => (caller.paid || value === null ? value : locked);
  return {
    synthetic: true as const,
    iban: record.iban,
    ...provider,
    ...qualityFields(quality),
    premium_fields_locked: !caller.paid,
    profile: {
      full_name: `${record.first_name} ${record.last_name}`,
      country: record.country,
      city: record.address.city,
      bank_account: {
        bank_name: hide(bank?.bank_name ?? null),
        // The registry holds no websites and none is invented.
        bank_website: null,
        swift_bic: hide(bank?.swift_bic ?? null),
        bank_code: bank?.bank_code ?? null,
        bank_city: bank?.bank_city ?? null,
        bank_match: bank?.bank_match ?? 'synthetic',
      },
    },
  };
}

const text = Type.String();
const qualitySchemas = {
  quality_score: Type.Integer({
    minimum: 0,
    maximum: 100,
    description: '85-100 good (95+ excellent), 70-84 usable, review; below 70 needs review',
  }),
  quality_tier: Type.Union([
    Type.Literal('good'),
    Type.Literal('review'),
    Type.Literal('needs_review'),
  ]),
  quality_label: text,
  quality_reasons: Type.Array(
    Type.Object({ code: text, group: text, field: text, penalty: Type.Integer(), message: text }),
  ),
};
const providerSchemas = {
  provider: Type.String({ description: 'builtin, or the external provider name' }),
  model: Type.String({
    description: 'builtin: the engine and its version; external: the configured model',
  }),
  model_tier: Type.Union([Type.Literal('builtin'), Type.Literal('external')]),
  repaired_fields: Type.Optional(
    Type.Array(Type.String(), {
      description: 'External provider only: fields filled from the built-in draft',
    }),
  ),
};

export const personalShapeSchema = Type.Object(
  {
    synthetic: Type.Literal(true),
    ...providerSchemas,
    country_code: text,
    first_name: text,
    last_name: text,
    gender: Type.Union([Type.Literal('female'), Type.Literal('male')]),
    date_of_birth: Type.String({ format: 'date' }),
    age: Type.Integer(),
    email: Type.String({
      description: 'At example.com, example.net or example.org (RFC 2606 reserved)',
    }),
    phone: nullableString(
      'International format. Default: synthetic, valid for the country in libphonenumber (max metadata), spread over the mobile and landline allocations, unique within a bulk dataset; with phone_range "fictional": a range reserved for fiction (GB Ofcom drama numbers)',
    ),
    phone_range: Type.Union([
      Type.Literal('fictional_reserved'),
      Type.Literal('synthetic_format_valid'),
      Type.Null(),
    ]),
    address: Type.Object({
      street: text,
      postal_code: nullableString('In the country format; null where no format is modelled'),
      city: text,
      country: text,
    }),
    occupation: text,
    tax_id: nullableString(
      'National identifier with valid check digits (DE IdNr, ES DNI, FR NIR, IT codice fiscale, NL BSN, PL PESEL); null elsewhere',
    ),
    tax_id_scheme: nullableString('de_idnr, es_dni, fr_nir, it_codice_fiscale, nl_bsn, pl_pesel'),
    ssn: nullableString('US only: a never-issued form (area 9xx, group 01-49)'),
    credit_card: Type.Object({
      type: text,
      number: Type.String({ description: 'A published test card number, masked' }),
      expiry: Type.String({ description: 'MM/YY' }),
      cvv: Type.String({ description: 'Masked' }),
    }),
    iban: nullableString('Synthetic IBAN of the profile country, national checks valid'),
    locale: text,
    locale_fallback: Type.Boolean({
      description:
        'true: faker has no locale for the country; names and street from a language locale',
    }),
    ...qualitySchemas,
  },
  { description: 'Personal-data shape: the request carried no bank context' },
);

export const bankContextShapeSchema = Type.Object(
  {
    synthetic: Type.Literal(true),
    iban: nullableString('The IBAN sent, or one generated at the bank the context names'),
    ...providerSchemas,
    ...qualitySchemas,
    premium_fields_locked: Type.Boolean(),
    profile: Type.Object({
      full_name: text,
      country: text,
      city: text,
      bank_account: Type.Object({
        bank_name: nullableString('From the registry (LOCKED for free keys)'),
        bank_website: Type.Null({ description: 'The registry holds no websites: always null' }),
        swift_bic: nullableString('From the registry (LOCKED for free keys)'),
        bank_code: nullableString('Bank code inside the IBAN'),
        bank_city: nullableString('From the registry'),
        bank_match: Type.Union(
          [Type.Literal('matched'), Type.Literal('no_match'), Type.Literal('synthetic')],
          {
            description:
              "matched: a registry bank; no_match: the registry does not know the sent IBAN's bank; synthetic: no registry banks for the country",
          },
        ),
      }),
    }),
  },
  {
    description: 'Bank-context shape: the request carried iban, swift_code, bank_name or bank_city',
  },
);

export const profileEnvelopeSchema = Type.Object({
  success: Type.Literal(true),
  profile: Type.Union([personalShapeSchema, bankContextShapeSchema]),
  generations_left: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Profile credits left in the current period; null on uncapped plans',
  }),
});
