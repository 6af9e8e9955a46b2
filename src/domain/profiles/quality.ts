import { validateIban } from '../iban/validate.js';
import type { NationalContext } from '../iban/national/types.js';
import type { BankInfo } from '../banks/bank-source.js';
import { foldText } from '../text/fold.js';
import { ageOn } from './dates.js';
import { emailMatchesName, isReservedEmail } from './email.js';
import type { ProfileRecord } from './engine.js';
import { ssnSchemes, taxIdSchemes } from './national-ids/index.js';
import { isFictionalReserved, phoneValidForCountry } from './phones.js';
import { isPlaceOfCountry } from './place-names.js';
import { usZipMatches } from './places.js';
import { postalFormats } from './postal-codes.js';
import { surnameAgrees } from './surnames.js';

/**
 * The profile quality score: a pure function of one profile, the registry's record for its IBAN's bank code,
 * and the reference day. It starts at 100 and subtracts a named penalty per finding, in four groups, each
 * capped so no one group can sink a profile alone:
 *
 * - completeness (cap 35): 3 per missing field among names, gender, birth date, email, phone, street, city,
 *   country, occupation, card, IBAN (unless the profile has none by design), postal code where the country has
 *   a postal format, national identifier where the country has a published scheme;
 * - the world (cap 64), 16 each so that failing any one keeps the profile below 85: the city is not a place of
 *   the country in the GeoNames gazetteer; the e-mail does not read as the name (any-ascii transliteration);
 *   the phone is not valid for the country in libphonenumber's max metadata (a number of a reserved fiction
 *   range, asked for with phone_range "fictional", is listed with penalty 0 instead); the surname's form does
 *   not agree with the gender where the language has gendered surnames; a US ZIP that the ZIP table does not
 *   put in the profile's city and state;
 * - country consistency (cap 35): postal code not in the country's format 6,
 *   IBAN of another country 10, IBAN failing mod 97 or its national check 10, BIC of another country 6,
 *   national identifier failing its check digits or disagreeing with birth date/sex/name 8, names and street
 *   from a fallback language locale (faker has none for the country) 10, address country not the profile's 4,
 *   age not matching the birth date 5;
 * - bank metadata (cap 20): IBAN bank unknown to the registry 10, BIC differing from the registry's 10, bank name
 *   differing from the registry's 6, synthetic bank code (the registry has no banks for the country) 5;
 * - weak markers and placeholders (cap 30): 5 per field holding N/A-style placeholders, lorem ipsum, test/asdf/
 *   qwerty/dummy words, a test domain outside the email field, a run of six identical digits (outside the phone,
 *   whose plan prefixes may hold one), a phone or postal code of one repeated digit (00000). Emails on RFC 2606 reserved domains are expected in synthetic data: not weak.
 *
 * Tiers: 85-100 good (95+ labelled excellent), 70-84 review (usable, review before use), below 70 needs_review.
 */
export type QualityGroup =
  'completeness' | 'world' | 'country_consistency' | 'bank_metadata' | 'weak_markers';

export interface QualityReason {
  readonly code: string;
  readonly group: QualityGroup;
  readonly field: string;
  readonly penalty: number;
  readonly message: string;
}

export interface QualityScore {
  readonly score: number;
  readonly tier: 'good' | 'review' | 'needs_review';
  readonly label: 'excellent' | 'good' | 'usable, review before use' | 'needs review';
  readonly reasons: readonly QualityReason[];
}

const groupCaps: Readonly<Record<QualityGroup, number>> = {
  completeness: 35,
  world: 64,
  country_consistency: 35,
  bank_metadata: 20,
  weak_markers: 30,
};
export const qualityBands = { good: 85, excellent: 95, review: 70 } as const;

/** What the score needs besides the profile: the registry's bank for the IBAN's bank code (undefined: unknown). */
export interface QualityContext {
  readonly registryBank: BankInfo | undefined;
  readonly national: NationalContext;
  readonly today: Date;
}

type Finding = Omit<QualityReason, 'group'>;

function missingField(out: Finding[], field: string, value: unknown): void {
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) {
    out.push({ code: 'missing_field', field, penalty: 3, message: `${field} is missing` });
  }
}

// Plain functions, no closures per profile: bulk datasets score every row, and a closure per call is garbage.
function completeness(p: ProfileRecord): Finding[] {
  const out: Finding[] = [];
  missingField(out, 'first_name', p.first_name);
  missingField(out, 'last_name', p.last_name);
  missingField(out, 'gender', p.gender);
  missingField(out, 'date_of_birth', p.date_of_birth);
  missingField(out, 'email', p.email);
  missingField(out, 'phone', p.phone);
  missingField(out, 'address.street', p.address.street);
  missingField(out, 'address.city', p.address.city);
  missingField(out, 'address.country', p.address.country);
  missingField(out, 'occupation', p.occupation);
  missingField(out, 'credit_card', p.credit_card?.number);
  if (p.country_code !== 'US') missingField(out, 'iban', p.iban);
  if (postalFormats[p.country_code] !== undefined)
    missingField(out, 'address.postal_code', p.address.postal_code);
  if (taxIdSchemes[p.country_code] !== undefined) missingField(out, 'tax_id', p.tax_id);
  if (ssnSchemes[p.country_code] !== undefined) missingField(out, 'ssn', p.ssn);
  return out;
}

// One group, checked in the order its reasons are listed; each part pushes its findings into `out`.
function consistency(p: ProfileRecord, context: QualityContext): Finding[] {
  const out: Finding[] = [];
  contactConsistency(out, p);
  accountConsistency(out, p, context);
  nationalIdConsistency(out, p);
  personConsistency(out, p, context);
  return out;
}

/** A check against the world failed: 16 points, so no such profile reaches 85. */
const worldPenalty = 16;

/** The profile against independent data: the gazetteer, the name, libphonenumber, the language, the ZIP table. */
function world(p: ProfileRecord): Finding[] {
  const out: Finding[] = [];
  if (p.address.city !== '' && !isPlaceOfCountry(p.country_code, p.address.city))
    out.push({
      code: 'city_not_in_country',
      field: 'address.city',
      penalty: worldPenalty,
      message: `${p.address.city} is not a place of ${p.country_code} in the GeoNames gazetteer`,
    });
  if (p.email !== '' && !emailMatchesName(p.email, p.first_name, p.last_name))
    out.push({
      code: 'email_name_mismatch',
      field: 'email',
      penalty: worldPenalty,
      message: 'e-mail does not read as the name (first.last transliterated by any-ascii)',
    });
  phoneFinding(out, p);
  if (!surnameAgrees(p.country_code, p.last_name, p.gender))
    out.push({
      code: 'surname_gender_mismatch',
      field: 'last_name',
      penalty: worldPenalty,
      message: `surname form does not agree with gender ${p.gender} in ${p.country_code}'s naming rules`,
    });
  if (p.country_code === 'US' && p.address.postal_code !== null && p.region !== null)
    if (!usZipMatches(p.address.postal_code, p.address.city, p.region))
      out.push({
        code: 'us_zip_mismatch',
        field: 'address.postal_code',
        penalty: worldPenalty,
        message: `ZIP ${p.address.postal_code} is not in ${p.address.city}, ${p.region} in the ZIP table`,
      });
  return out;
}

function phoneFinding(out: Finding[], p: ProfileRecord): void {
  if (p.phone === null) return;
  // Listed whether or not libphonenumber accepts it (Ofcom's 020 7946 0xxx lies in a valid London range).
  if (
    p.phone_range === 'fictional_reserved' &&
    isFictionalReserved(p.phone.replace(/[\s()-]/g, ''))
  )
    out.push({
      code: 'phone_fictional_range',
      field: 'phone',
      penalty: 0,
      message: 'phone in a range reserved for fiction, as requested: it reaches no subscriber',
    });
  else if (!phoneValidForCountry(p.phone, p.country_code))
    out.push({
      code: 'phone_invalid',
      field: 'phone',
      penalty: worldPenalty,
      message: `phone is not a valid number of ${p.country_code} for libphonenumber (max metadata)`,
    });
}

/** Postal code against the profile's country. */
function contactConsistency(out: Finding[], p: ProfileRecord): void {
  const postal = postalFormats[p.country_code];
  if (
    postal !== undefined &&
    p.address.postal_code !== null &&
    !postal.pattern.test(p.address.postal_code)
  ) {
    out.push({
      code: 'postal_code_format',
      field: 'address.postal_code',
      penalty: 6,
      message: `postal code is not in ${p.country_code}'s format`,
    });
  }
}

/** IBAN and BIC against the profile's country, and the IBAN's own checks. */
function accountConsistency(out: Finding[], p: ProfileRecord, context: QualityContext): void {
  if (p.iban !== null) {
    const verdict = validateIban(p.iban, context.national);
    if (verdict.countryCode !== p.country_code)
      out.push({
        code: 'iban_country_mismatch',
        field: 'iban',
        penalty: 10,
        message: `IBAN country ${verdict.countryCode ?? '?'} is not ${p.country_code}`,
      });
    if (!verdict.valid || verdict.nationalCheck === 'failed')
      out.push({
        code: 'iban_invalid',
        field: 'iban',
        penalty: 10,
        message: `IBAN fails its checks: ${verdict.error ?? 'national check failed'}`,
      });
  }
  const bic = p.bank?.swift_bic ?? null;
  if (bic !== null && bic.slice(4, 6) !== p.country_code)
    out.push({
      code: 'bic_country_mismatch',
      field: 'bank.swift_bic',
      penalty: 6,
      message: `BIC country ${bic.slice(4, 6)} is not ${p.country_code}`,
    });
}

/** The national identifier's check digits and its agreement with the person. */
function nationalIdConsistency(out: Finding[], p: ProfileRecord): void {
  const scheme = taxIdSchemes[p.country_code] ?? ssnSchemes[p.country_code];
  const id = p.tax_id ?? p.ssn;
  if (scheme !== undefined && id !== null) {
    const subject = {
      firstName: p.first_name,
      lastName: p.last_name,
      sex: p.gender,
      dateOfBirth: p.date_of_birth,
    };
    if (!scheme.validate(id) || !scheme.agrees(id, subject))
      out.push({
        code: 'national_id_invalid',
        field: p.tax_id !== null ? 'tax_id' : 'ssn',
        penalty: 8,
        message: `${scheme.name} fails its check or disagrees with the person`,
      });
  }
}

/** Locale fallback, address country and age. */
function personConsistency(out: Finding[], p: ProfileRecord, context: QualityContext): void {
  if (p.locale_fallback)
    out.push({
      code: 'locale_fallback',
      field: 'locale',
      penalty: 10,
      message: `names and street from the ${p.locale} locale: faker has no locale for ${p.country_code}`,
    });
  if (p.address.country !== p.country && foldText(p.address.country) !== foldText(p.country))
    out.push({
      code: 'address_country_mismatch',
      field: 'address.country',
      penalty: 4,
      message: 'address country differs from the profile country',
    });
  if (
    /^\d{4}-\d{2}-\d{2}$/.test(p.date_of_birth) &&
    ageOn(p.date_of_birth, context.today) !== p.age
  )
    out.push({
      code: 'age_mismatch',
      field: 'age',
      penalty: 5,
      message: 'age does not match the birth date',
    });
}

function bankMetadata(p: ProfileRecord, context: QualityContext): Finding[] {
  if (p.bank === null) return [];
  const out: Finding[] = [];
  const registry = context.registryBank;
  if (p.bank.bank_match === 'synthetic')
    return [
      {
        code: 'bank_synthetic',
        field: 'bank',
        penalty: 5,
        message: 'synthetic bank code: the registry has no banks for this country',
      },
    ];
  if (registry === undefined)
    return [
      {
        code: 'bank_unknown',
        field: 'bank',
        penalty: 10,
        message: "the registry does not know the IBAN's bank code",
      },
    ];
  if (p.bank.swift_bic !== registry.bic)
    out.push({
      code: 'bic_mismatch',
      field: 'bank.swift_bic',
      penalty: 10,
      message: `BIC differs from the registry's (${registry.bic ?? 'none'})`,
    });
  if (
    p.bank.bank_name !== registry.name &&
    foldText(p.bank.bank_name ?? '') !== foldText(registry.name ?? '')
  )
    out.push({
      code: 'bank_name_mismatch',
      field: 'bank.bank_name',
      penalty: 6,
      message: "bank name differs from the registry's",
    });
  return out;
}

const placeholder = /^(n\/?a|none|null|nil|unknown|tbd|tba|xxx+|-+|\?+|\.+|0+)$/i;
// Whole words in any script: \b is ASCII-only and would find "bar" in the Turkish "Barış".
const weakWord =
  /(?<![\p{L}\p{N}])(lorem|ipsum|test|testing|asdf|qwerty|dummy|foo|bar|baz|sample|placeholder|fake)(?![\p{L}\p{N}])/iu;
const testDomain =
  /\b[\w-]+\.(test|invalid|localhost|example)\b|\b(example|test)\.(com|net|org)\b|\bmailinator\.com\b/i;

/** Digits, spaces, plus, hyphen and parentheses only: no letter for a weak word, no dot for a domain. */
const digitsAndPunctuation = /^[\d +()-]*$/;

/** True when the digits of `text` (other characters skipped) hold a run of six identical ones. */
function hasSixIdenticalDigits(text: string): boolean {
  let last = -1;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) continue;
    run = code === last ? run + 1 : 1;
    last = code;
    if (run >= 6) return true;
  }
  return false;
}

/** Why a field's text reads as weak (email: its local part), or undefined. */
function weakReason(field: string, text: string, isEmail: boolean): string | undefined {
  if (placeholder.test(text.trim())) return 'placeholder value';
  const plain = digitsAndPunctuation.test(text);
  if (!plain && weakWord.test(text)) return 'test or filler word';
  // Every branch of testDomain has a literal dot: text without one cannot match.
  if (!isEmail && !plain && text.includes('.') && testDomain.test(text))
    return 'test domain outside the email field';
  if (field !== 'phone' && hasSixIdenticalDigits(text)) return 'run of six identical digits';
  if (field === 'phone' && /^\+\d{1,3} ?(\d)(?: ?\1){5,}$/.test(text))
    return 'phone of one repeated digit';
  if (field === 'address.postal_code' && /^(\d)\1{3,}$/.test(text))
    return 'postal code of one repeated digit';
  return undefined;
}

function weakField(out: Finding[], field: string, value: string | null): void {
  if (value === null || value === '') return;
  const isEmail = field === 'email';
  let why: string | undefined;
  if (isEmail) {
    why = weakReason(field, value.slice(0, value.lastIndexOf('@')), true);
    if (!isReservedEmail(value) && why === undefined && testDomain.test(value))
      why = 'test domain that is not RFC 2606 reserved';
  } else {
    why = weakReason(field, value, false);
  }
  if (why !== undefined)
    out.push({ code: 'weak_marker', field, penalty: 5, message: `${field}: ${why}` });
}

function weakMarkers(p: ProfileRecord): Finding[] {
  const out: Finding[] = [];
  weakField(out, 'first_name', p.first_name);
  weakField(out, 'last_name', p.last_name);
  weakField(out, 'phone', p.phone);
  weakField(out, 'address.street', p.address.street);
  weakField(out, 'address.postal_code', p.address.postal_code);
  weakField(out, 'address.city', p.address.city);
  weakField(out, 'occupation', p.occupation);
  weakField(out, 'tax_id', p.tax_id);
  weakField(out, 'bank.bank_name', p.bank?.bank_name ?? null);
  weakField(out, 'email', p.email);
  return out;
}

export function scoreProfile(profile: ProfileRecord, context: QualityContext): QualityScore {
  const reasons: QualityReason[] = [];
  // Each group's findings in order, the group's penalty capped; no arrays beyond the findings themselves.
  const penalty =
    addGroup(reasons, 'completeness', completeness(profile)) +
    addGroup(reasons, 'world', world(profile)) +
    addGroup(reasons, 'country_consistency', consistency(profile, context)) +
    addGroup(reasons, 'bank_metadata', bankMetadata(profile, context)) +
    addGroup(reasons, 'weak_markers', weakMarkers(profile));
  const score = Math.max(0, 100 - penalty);
  if (score >= qualityBands.good)
    return {
      score,
      tier: 'good',
      label: score >= qualityBands.excellent ? 'excellent' : 'good',
      reasons,
    };
  if (score >= qualityBands.review)
    return { score, tier: 'review', label: 'usable, review before use', reasons };
  return { score, tier: 'needs_review', label: 'needs review', reasons };
}

/** Appends a group's findings as reasons; returns its penalty, capped. */
function addGroup(
  reasons: QualityReason[],
  group: QualityGroup,
  findings: readonly Finding[],
): number {
  let total = 0;
  for (const finding of findings) {
    reasons.push({ ...finding, group });
    total += finding.penalty;
  }
  return Math.min(total, groupCaps[group]);
}
